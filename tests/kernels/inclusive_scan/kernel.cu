//pass
//--blockDim=256 --gridDim=2
// Inclusive prefix sum per block (Hillis-Steele) with double buffering in shared memory.
#define N 256
__global__ void inclusive_scan(const int *in, int *out) {
  __shared__ int buf[2][N];
  unsigned t = threadIdx.x;
  unsigned base = blockIdx.x * N;
  int cur = 0;
  buf[0][t] = in[base + t];
  __syncthreads();
  for (unsigned d = 1; d < N; d <<= 1) {
    int v = buf[cur][t];
    if (t >= d) {
      v += buf[cur][t - d];
    }
    buf[1 - cur][t] = v;
    cur = 1 - cur;
    __syncthreads();
  }
  out[base + t] = buf[cur][t];
}
