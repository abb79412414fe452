//--blockDim=64 --gridDim=1
// Two warps write the two halves of one word: adjacent, not overlapping.
__global__ void k(int *out) {
  __shared__ int s[1];
  unsigned t = threadIdx.x;
  if (t == 0)
    ((volatile short *)s)[0] = 1;
  if (t == 32)
    ((volatile short *)s)[1] = 2;
  __syncthreads();
  if (t == 0)
    out[0] = s[0];
}
