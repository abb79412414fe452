//--blockDim=2 --gridDim=1 --buffer=out=2
// Two rounds of exchange through shared memory, each between two barriers: the barrier
// counter's generations keep the rounds apart.
__global__ void rounds(int *out) {
  __shared__ int s[2];
  unsigned t = threadIdx.x;
  int v = t;
  for (int r = 0; r < 2; r++) {
    s[t] = v + 1;
    __syncthreads();
    v = s[1 - t];
    __syncthreads();
  }
  __assert(v == (int)t + 2);
  out[t] = v;
}
