//xfail:ARRAY_BOUNDS
//--blockDim=64 --gridDim=1 --check-array-bounds
// thread 63 writes s[64], one past the 64-int shared array (no race: every index is distinct)
__global__ void k(int *out) {
  __shared__ int s[64];
  s[threadIdx.x + 1] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}
