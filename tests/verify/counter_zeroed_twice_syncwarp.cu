//xfail:RACE
//--blockDim=32 --gridDim=1
// one warp; `n` is zeroed again between two rounds of atomicAdd, ordered by __syncwarp only, so the second round returns the first round's values again and two threads write the same buf word in the last interval (a warp barrier must restart the counter's used values like a block barrier)
__global__ void k(int *out) {
  __shared__ unsigned n;
  __shared__ int buf[32];
  if (threadIdx.x == 0) n = 0;
  __syncwarp();
  unsigned v1 = atomicAdd(&n, 1u);
  __syncwarp();
  if (threadIdx.x == 0) n = 0;
  __syncwarp();
  unsigned v2 = atomicAdd(&n, 1u);
  buf[v1] = 1;
  buf[v2] = 2;
  __syncwarp();
  out[threadIdx.x] = buf[threadIdx.x];
}
