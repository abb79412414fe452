//xfail:ASSERT
//--blockDim=64 --gridDim=1
// the thread writes s[tid] = 0x01020304, then its lowest byte = 5: reading back the int gives 0x01020305 (little-endian), not the byte's value 5 widened, so the assertion fails
__global__ void k(int *out) {
  __shared__ int s[64];
  unsigned i = threadIdx.x;
  s[i] = 0x01020304;
  ((volatile char *)&s[i])[0] = 5;
  __assert(s[i] == 5);
  out[i] = s[i];
}
