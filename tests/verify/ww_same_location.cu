//xfail:RACE
//--blockDim=32 --gridDim=1
// every thread writes A[0]
__global__ void k(int *A) { A[0] = threadIdx.x; }
