//xfail:RACE
//--blockDim=32 --gridDim=4
// the axiom blockIdx.x < 2 leaves blocks 0 and 1, which both write A[threadIdx.x]
__axiom(blockIdx.x < 2);

__global__ void k(int *A) {
  A[threadIdx.x] = blockIdx.x;
}
