//--blockDim=16,16 --gridDim=2,2
// Tiled matrix transpose; the barrier between writing and reading the tile is missing.
#define T 16
__global__ void k(const float *in, float *out, int w) {
  __shared__ float tile[T][T + 1];
  int x = blockIdx.x * T + threadIdx.x, y = blockIdx.y * T + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * w + x]; // @W
  x = blockIdx.y * T + threadIdx.x;
  y = blockIdx.x * T + threadIdx.y;
  out[y * w + x] = tile[threadIdx.x][threadIdx.y]; // @R
}
