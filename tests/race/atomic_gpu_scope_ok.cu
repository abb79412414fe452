//--blockDim=32 --gridDim=4
__device__ void add_gpu(int *p, int v) {
  asm volatile("red.relaxed.gpu.add.s32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
__global__ void k(int *count) { add_gpu(count, 1); }
