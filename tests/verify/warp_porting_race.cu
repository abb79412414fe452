//xfail:RACE
//--blockDim=32 --gridDim=1 --warp-sync=32
// paper 002 §3.1's porting race: divergent paths of one warp both write A[o]
__global__ void k(int *A, unsigned o) {
  if (threadIdx.x < 16) A[o] = 1; else A[o] = 2;
}
