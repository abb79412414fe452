//xfail:ASSERT
//--blockDim=64 --gridDim=1
// the thread writes s[tid] = 0, then byte 1 of it = 1: s[tid] is then 256 (little-endian), so reading back the int must not return the earlier whole-int write
__global__ void k(int *out) {
  __shared__ int s[64];
  unsigned i = threadIdx.x;
  s[i] = 0;
  ((volatile char *)&s[i])[1] = 1;
  __assert(s[i] == 0);
  out[i] = s[i];
}
