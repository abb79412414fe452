//xfail:RACE
//--blockDim=64 --gridDim=2
// paper 002 §5: the master thread takes the block's base index; two-thread reduction cannot relate non-master threads of different blocks (expected false positive)
__global__ void mandel(unsigned *counter, int *out) {
  __shared__ unsigned base;
  if (threadIdx.x == 0) base = atomicAdd(counter, 64u);
  __syncthreads();
  out[base + threadIdx.x] = blockIdx.x;
}
