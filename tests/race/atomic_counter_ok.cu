//--blockDim=64 --gridDim=4
// Every thread increments one global counter atomically.
__global__ void k(int *count) { atomicAdd(count, 1); }
