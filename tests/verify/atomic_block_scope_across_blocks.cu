//xfail:RACE
//--blockDim=64 --gridDim=2
// beyond GPUVerify: block-scope atomics of two blocks are not mutually in scope (paper 004 §2.1)
__global__ void k(int *count) { atomicAdd_block(count, 1); }
