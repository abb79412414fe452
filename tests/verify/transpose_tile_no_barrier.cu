//xfail:RACE
//--blockDim=[8,8] --gridDim=[1,1]
// the read of the transposed tile element is not separated from its write
__global__ void transpose(const float *in, float *out) {
  __shared__ float tile[8][9];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * 8 + threadIdx.x];
  out[threadIdx.y * 8 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}
