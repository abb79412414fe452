//--blockDim=64 --gridDim=1
// Warp 0 writes a whole int, warp 1 writes one byte inside it.
__global__ void k(int *out) {
  __shared__ int s[1];
  if (threadIdx.x == 0)
    s[0] = 0x11223344; // @I
  if (threadIdx.x == 32)
    ((volatile char *)s)[2] = 0x7f; // @B
  __syncthreads();
  if (threadIdx.x == 0)
    out[0] = s[0];
}
