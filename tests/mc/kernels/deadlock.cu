//--blockDim=1 --gridDim=2 --buffer=flag=2
// Each block waits for the other's flag before raising its own: neither can go on.
__global__ void k(volatile int *flag) {
  int me = blockIdx.x, other = 1 - blockIdx.x;
  while (atomicAdd((int *)&flag[other], 0) == 0) {
  }
  atomicExch((int *)&flag[me], 1);
}
