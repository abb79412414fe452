//pass
//--blockDim=32 --gridDim=4
// one writer per block, distinct elements
__global__ void k(int *out) { if (threadIdx.x == 0) out[blockIdx.x] = 7; }
