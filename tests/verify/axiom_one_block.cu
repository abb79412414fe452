//pass
//--blockDim=32 --gridDim=4
// the axiom blockIdx.x == 0 restricts the launch to block 0, so no two blocks write A[threadIdx.x]
__axiom(blockIdx.x == 0);

__global__ void k(int *A) {
  A[threadIdx.x] = blockIdx.x;
}
