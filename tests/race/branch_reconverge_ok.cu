//--blockDim=32 --gridDim=1
__global__ void k(int *out) {
  __shared__ int s[32];
  unsigned t = threadIdx.x;
  s[t] = 0;
  if (t == 0)
    s[5] = 42;
  out[t] = s[(t + 5) % 32];
}
