//xfail:RACE
//--blockDim=64 --gridDim=2
// thread x of block 0 and thread x of block 1 write the same global element
__global__ void k(int *A) { A[threadIdx.x] = blockIdx.x; }
