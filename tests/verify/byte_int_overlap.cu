//xfail:RACE
//--blockDim=64 --gridDim=1
// thread 0's 4-byte store covers bytes 0..3 that threads 1..3 write
__global__ void k(char *A) {
  if (threadIdx.x == 0) *(int *)A = 0;
  else A[threadIdx.x] = 1;
}
