//xfail:RACE
//--blockDim=[8,8] --gridDim=[1,1]
// the threads of a row (same y) write the same element
__global__ void k(int *A) { A[threadIdx.y] = threadIdx.x; }
