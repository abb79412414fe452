//--blockDim=8,8 --gridDim=2,2
// Rodinia hotspot, reduced: a 2-D 5-point stencil over a shared tile, iterated, with
// barriers between computing and writing back the tile.
#define T 8
__global__ void hotspot(const float *power, float *temp, int n, int iters) {
  __shared__ float t[T][T], nt[T][T];
  int x = threadIdx.x, y = threadIdx.y;
  int gx = blockIdx.x * T + x, gy = blockIdx.y * T + y;
  t[y][x] = temp[gy * n + gx];
  __syncthreads();
  for (int i = 0; i < iters; ++i) {
    float c = t[y][x];
    float nn = y > 0 ? t[y - 1][x] : c, s = y < T - 1 ? t[y + 1][x] : c;
    float w = x > 0 ? t[y][x - 1] : c, e = x < T - 1 ? t[y][x + 1] : c;
    nt[y][x] = c + 0.1f * (nn + s + w + e - 4 * c) + power[gy * n + gx];
    __syncthreads();
    t[y][x] = nt[y][x];
    __syncthreads();
  }
  temp[gy * n + gx] = t[y][x];
}
