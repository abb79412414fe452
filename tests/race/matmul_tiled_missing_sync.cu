//--blockDim=8,8 --gridDim=2,2
// Tiled matrix multiply (16x16) that forgot the barrier after the tile loads.
#define T 8
__global__ void k(const float *a, const float *b, float *c, int n) {
  __shared__ float as[T][T], bs[T][T];
  int row = blockIdx.y * T + threadIdx.y, col = blockIdx.x * T + threadIdx.x;
  float acc = 0;
  for (int m = 0; m < n / T; ++m) {
    as[threadIdx.y][threadIdx.x] = a[row * n + m * T + threadIdx.x]; // @WA
    bs[threadIdx.y][threadIdx.x] = b[(m * T + threadIdx.y) * n + col]; // @WB
    for (int e = 0; e < T; ++e)
      acc += as[threadIdx.y][e] * bs[e][threadIdx.x]; // @RA
    __syncthreads();
  }
  c[row * n + col] = acc;
}
