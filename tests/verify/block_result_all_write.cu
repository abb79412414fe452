//xfail:RACE
//--blockDim=32 --gridDim=4
// all threads of a block write out[blockIdx]
__global__ void k(int *out) { out[blockIdx.x] = threadIdx.x; }
