//--blockDim=32 --gridDim=4
// atomicAdd_block on a per-block counter: every CTA uses its own location.
__device__ void add_block(int *p, int v) {
  asm volatile("red.relaxed.cta.add.s32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
__global__ void k(int *count) { add_block(&count[blockIdx.x], 1); }
