//pass
//--blockDim=64 --gridDim=2
// only one thread of the grid writes
__global__ void k(int *A) { if (threadIdx.x == 0 && blockIdx.x == 0) A[0] = 1; }
