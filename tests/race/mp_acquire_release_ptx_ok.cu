//--blockDim=32 --gridDim=2
// Message passing with PTX 6 release/acquire instructions instead of fences.
__device__ void st_release(int *p, int v) {
  asm volatile("st.release.gpu.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
__device__ int ld_acquire(int *p) {
  int v;
  asm volatile("ld.acquire.gpu.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
__global__ void k(int *data, int *flag, int *out) {
  if (threadIdx.x != 0)
    return;
  if (blockIdx.x == 0) {
    data[0] = 42;
    st_release(flag, 1);
  } else {
    while (ld_acquire(flag) == 0)
      ;
    out[0] = data[0];
  }
}
