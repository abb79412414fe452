//--blockDim=32 --gridDim=2
// Block 0 writes a 64-bit word; block 1 writes its last byte.
__global__ void k(long long *w) {
  if (threadIdx.x != 0)
    return;
  if (blockIdx.x == 0)
    w[0] = 0x0102030405060708LL; // @L
  else
    ((volatile char *)w)[7] = 1; // @B
}
