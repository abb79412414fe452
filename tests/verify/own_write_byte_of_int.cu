//xfail:ASSERT
//--blockDim=64 --gridDim=1
// the byte the thread reads of the int it wrote is its lowest byte (little-endian: 4), not the int's value truncated differently nor its top byte 1, so the assertion fails
__global__ void k(int *out) {
  __shared__ int s[64];
  unsigned i = threadIdx.x;
  s[i] = 0x01020304;
  char b = ((volatile char *)&s[i])[0];
  __assert(b == 1);
  out[i] = b;
}
