//--blockDim=32 --gridDim=1
__global__ void k(int *out) {
  __shared__ int s[32];
  unsigned t = threadIdx.x;
  int r = 0;
  if (t == 0)
    s[5] = 42; // @W
  else
    r = s[t]; // @R
  out[t] = r;
}
