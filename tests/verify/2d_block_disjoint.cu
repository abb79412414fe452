//pass
//--blockDim=[8,8] --gridDim=[2,2]
// 2-D global index
__global__ void k(int *A) {
  unsigned x = blockIdx.x * 8 + threadIdx.x, y = blockIdx.y * 8 + threadIdx.y;
  A[y * 16 + x] = x;
}
