//--blockDim=2 --gridDim=1 --buffer=flag=1
// Thread 0 raises a flag to 1; thread 1 spins until it reads 2, which nobody writes.
__global__ void k(volatile int *flag) {
  if (threadIdx.x == 0) {
    *flag = 1;
  } else {
    while (*flag != 2) {
    }
  }
}
