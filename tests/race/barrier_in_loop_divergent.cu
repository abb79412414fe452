//--blockDim=32 --gridDim=1
// A loop with a data-dependent trip count and a barrier in its body.
__global__ void k(const int *cnt, int *out) {
  __shared__ int s[32];
  int acc = 0;
  for (int i = 0; i < cnt[threadIdx.x]; ++i) {
    s[threadIdx.x] = i;
    __syncthreads(); // @B
    acc += s[(threadIdx.x + 1) % 32];
  }
  out[threadIdx.x] = acc;
}
