//pass
//--blockDim=64 --gridDim=2
// device-scope atomics across blocks do not race
__global__ void k(int *count) { atomicAdd(count, 1); }
