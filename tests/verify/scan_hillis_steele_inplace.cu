//xfail:RACE
//--blockDim=64 --gridDim=1
// in place: thread t reads a[t-d] while thread t-d writes it
__global__ void scan(int *g) {
  __shared__ int a[64];
  unsigned t = threadIdx.x;
  a[t] = g[t];
  __syncthreads();
  for (unsigned d = 1; d < 64; d *= 2) {
    if (t >= d) a[t] += a[t - d];
    __syncthreads();
  }
  g[t] = a[t];
}
