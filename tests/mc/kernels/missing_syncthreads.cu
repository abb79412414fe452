//--blockDim=2 --gridDim=1 --buffer=out=2
// Each thread publishes its id in shared memory and reads its neighbour's slot without a
// __syncthreads() in between.
__global__ void rotate(int *out) {
  __shared__ int s[2];
  unsigned t = threadIdx.x;
  s[t] = t + 10;
  out[t] = s[1 - t];
}
