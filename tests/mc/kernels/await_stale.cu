//--blockDim=2 --gridDim=1 --buffer=flag=1
// Thread 0 raises a flag to 1 then 2; thread 1 spins until it reads 2. The await read may
// read 0 (initial), 1 or 2; only 2 lets it out, and 2 is the last write in coherence.
__global__ void k(volatile int *flag) {
  if (threadIdx.x == 0) {
    *flag = 1;
    *flag = 2;
  } else {
    while (*flag != 2) {
    }
  }
}
