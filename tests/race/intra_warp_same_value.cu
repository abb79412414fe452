//--blockDim=32 --gridDim=1
// Every lane of the warp writes the same value to one location: well defined (§3.3.1).
__global__ void k(const int *in, int *out) {
  __shared__ int found;
  if (threadIdx.x == 0)
    found = 0;
  __syncthreads();
  found = 1;
  __syncthreads();
  if (threadIdx.x == 0)
    out[0] = found + in[0];
}
