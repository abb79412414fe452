//xfail:RACE
//--blockDim=64 --gridDim=1
// threads 0 and 1 both write A[0]
__global__ void k(int *A) { if (threadIdx.x < 2) A[0] = threadIdx.x; }
