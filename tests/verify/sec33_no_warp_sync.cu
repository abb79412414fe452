//xfail:RACE
//--blockDim=32 --gridDim=1
// without lock-step, thread 0's A[1]=1 and thread 1's A[1]=0 race
__global__ void k(int *A) {
  if (threadIdx.x == 0) { A[0] = 1; A[1] = 1; A[2] = 1; }
  A[threadIdx.x] = 0;
}
