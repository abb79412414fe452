// Dynamic shared memory (the third <<<>>> argument) with a static shared variable beside it:
// a block-wide sum of 0..63 (2016) per block, plus the block index from the static one.
#include <cstdio>

__global__ void block_sum(const int *in, int *out) {
  extern __shared__ int buf[];
  __shared__ int base;
  int t = threadIdx.x;
  if (t == 0) base = blockIdx.x * 1000;
  buf[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    if (t < s) buf[t] += buf[t + s];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = buf[0] + base;
}

int main() {
  const int b = 64, g = 2;
  int h[b * g], r[g];
  for (int i = 0; i < b * g; i++) h[i] = i % b;
  int *d, *o;
  cudaMalloc(&d, sizeof h);
  cudaMalloc(&o, sizeof r);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  block_sum<<<g, b, b * sizeof(int)>>>(d, o);
  cudaMemcpy(r, o, sizeof r, cudaMemcpyDeviceToHost);
  printf("sums %d %d\n", r[0], r[1]);
  cudaFree(d);
  cudaFree(o);
  return 0;
}
