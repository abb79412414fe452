//--blockDim=32 --gridDim=2
// The flag uses relaxed (strong) accesses but no fences: no race on the flag, but the data
// is not ordered.
__device__ void st_relaxed(int *p, int v) {
  asm volatile("st.relaxed.gpu.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
__device__ int ld_relaxed(int *p) {
  int v;
  asm volatile("ld.relaxed.gpu.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
__global__ void k(int *data, int *flag, int *out) {
  if (threadIdx.x != 0)
    return;
  if (blockIdx.x == 0) {
    data[0] = 42; // @D
    st_relaxed(flag, 1);
  } else {
    while (ld_relaxed(flag) == 0)
      ;
    out[0] = data[0]; // @R
  }
}
