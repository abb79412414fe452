//--blockDim=2 --gridDim=1 --buffer=out=2
// The fixed version: __syncthreads() between publishing and reading.
__global__ void rotate(int *out) {
  __shared__ int s[2];
  unsigned t = threadIdx.x;
  s[t] = t + 10;
  __syncthreads();
  int v = s[1 - t];
  __assert(v == 11 - t);
  out[t] = v;
}
