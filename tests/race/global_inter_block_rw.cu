//--blockDim=64 --gridDim=2
// Each thread writes its element, then reads the element of the other block.
__global__ void k(int *a, int *out) {
  unsigned i = blockIdx.x * 64 + threadIdx.x;
  a[i] = i * 3; // @W
  out[i] = a[(i + 64) % 128]; // @R
}
