//pass
//--blockDim=64 --gridDim=1
// one block: block scope covers both threads
__global__ void k(int *count) { atomicAdd_block(count, 1); }
