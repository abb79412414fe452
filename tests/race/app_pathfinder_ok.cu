//--blockDim=64 --gridDim=2
// Rodinia pathfinder, reduced: each block advances a row of the dynamic program through
// shared memory, several rows per launch, with barriers between rows.
#define B 64
__global__ void pathfinder(const int *wall, const int *src, int *dst, int cols, int rows) {
  __shared__ int prev[B + 2], result[B];
  int tx = threadIdx.x;
  int x = blockIdx.x * B + tx;
  prev[tx + 1] = src[x];
  if (tx == 0)
    prev[0] = x > 0 ? src[x - 1] : 1 << 30;
  if (tx == B - 1)
    prev[B + 1] = x + 1 < cols ? src[x + 1] : 1 << 30;
  __syncthreads();
  for (int r = 0; r < rows; ++r) {
    int l = prev[tx], c = prev[tx + 1], rr = prev[tx + 2];
    int m = l < c ? l : c;
    m = m < rr ? m : rr;
    result[tx] = m + wall[r * cols + x];
    __syncthreads();
    prev[tx + 1] = result[tx];
    __syncthreads();
  }
  dst[x] = prev[tx + 1];
}
