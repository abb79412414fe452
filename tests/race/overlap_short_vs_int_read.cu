//--blockDim=64 --gridDim=1
// Warp 1 stores a short into the upper half of a word that warp 0 reads as an int.
__global__ void k(int *out) {
  __shared__ int s[2];
  unsigned t = threadIdx.x;
  if (t == 0)
    s[0] = 5;
  __syncthreads();
  if (t == 32)
    ((volatile short *)s)[1] = 9; // @H
  if (t == 0)
    out[0] = ((volatile int *)s)[0]; // @R
}
