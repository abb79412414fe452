//--blockDim=4 --gridDim=1 --buffer=out=1
// A shared-memory tree reduction of 4 values with a barrier after every step.
__global__ void reduce(int *out) {
  __shared__ int s[4];
  unsigned t = threadIdx.x;
  s[t] = t + 1;
  __syncthreads();
  for (unsigned k = 2; k > 0; k >>= 1) {
    if (t < k)
      s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0) {
    __assert(s[0] == 10);
    out[0] = s[0];
  }
}
