//pass
//--blockDim=[8,8] --gridDim=[2,2]
// tiled transpose with a fixed 16x16 matrix
__global__ void transpose(const float *in, float *out) {
  __shared__ float tile[8][9];
  unsigned x = blockIdx.x * 8 + threadIdx.x, y = blockIdx.y * 8 + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * 16 + x];
  __syncthreads();
  x = blockIdx.y * 8 + threadIdx.x; y = blockIdx.x * 8 + threadIdx.y;
  out[y * 16 + x] = tile[threadIdx.x][threadIdx.y];
}
