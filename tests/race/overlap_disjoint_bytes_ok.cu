//--blockDim=64 --gridDim=1
// Every thread writes its own byte of a char array; the words are shared by four threads
// of (sometimes) different warps.
__global__ void k(const char *in, char *out) {
  __shared__ char s[64];
  unsigned t = threadIdx.x;
  s[t] = in[t] + 1;
  __syncthreads();
  out[t] = s[63 - t];
}
