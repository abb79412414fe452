//--blockDim=2 --gridDim=1 --buffer=out=2
// Both threads of a block write the same shared word before the barrier.
__global__ void k(int *out) {
  __shared__ int s[2];
  s[0] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = s[0] + 1;
}
