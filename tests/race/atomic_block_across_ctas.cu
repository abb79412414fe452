//--blockDim=32 --gridDim=4
// atomicAdd_block (a .cta-scoped atomic) on one global counter from several blocks.
__device__ void add_block(int *p, int v) {
  asm volatile("red.relaxed.cta.add.s32 [%0], %1;" ::"l"(p), "r"(v) : "memory"); // @A
}
__global__ void k(int *count) {
  add_block(count, 1);
}
