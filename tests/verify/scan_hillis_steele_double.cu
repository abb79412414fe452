//pass
//--blockDim=64 --gridDim=1
// double-buffered Hillis-Steele scan
__global__ void scan(int *g) {
  __shared__ int a[64], b[64];
  unsigned t = threadIdx.x;
  a[t] = g[t];
  __syncthreads();
  for (unsigned d = 1; d < 64; d *= 2) {
    b[t] = t >= d ? a[t] + a[t - d] : a[t];
    __syncthreads();
    a[t] = b[t];
    __syncthreads();
  }
  g[t] = a[t];
}
