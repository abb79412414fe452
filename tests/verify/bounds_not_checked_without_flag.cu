//pass
//--blockDim=64 --gridDim=1
// the off-by-one of bounds_shared_off_by_one.cu is not a race: without --check-array-bounds it verifies
__global__ void k(int *out) {
  __shared__ int s[64];
  s[threadIdx.x + 1] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}
