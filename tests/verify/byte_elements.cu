//pass
//--blockDim=64 --gridDim=1
// one byte per thread
__global__ void k(char *A) { A[threadIdx.x] = 1; }
