//xfail:RACE
//--blockDim=64 --gridDim=1
// thread tid-1 writes s[tid] = 0 between thread tid's write and read: a write-write race with different values; it must be reported even though the race-free reading of the assertion (each thread reads back its own tid + 1) holds
__global__ void k(int *out) {
  __shared__ int s[64];
  unsigned i = threadIdx.x;
  s[i] = i + 1;
  s[(i + 1) % 64] = 0;
  __assert(s[i] == i + 1);
  out[i] = s[i];
}
