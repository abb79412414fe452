//xfail:RACE
//--blockDim=32 --gridDim=1 --warp-sync=32
// paper 002 §2.2: lock-step threads writing one location in one instruction race
__global__ void k(int *A) { A[0] = threadIdx.x; }
