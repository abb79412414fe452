//pass
//--blockDim=64 --gridDim=1
// stream compaction into shared memory: n is zeroed by a plain store, so it is not accessed by one repetition-free operation only... see expected.tsv
__global__ void k(int *out) {
  __shared__ unsigned n;
  __shared__ int buf[64];
  if (threadIdx.x == 0) n = 0;
  __syncthreads();
  unsigned i = atomicAdd(&n, 1u);
  buf[i] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = buf[threadIdx.x];
}
