//pass
//--blockDim=8 --gridDim=2
// A .cu file as people write them: the kernel plus host code (main, cudaMalloc, <<<...>>>,
// printf). weft compiles the device side only.
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

__global__ void scale(const int *in, int *out, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i] * k;
}

int main(void) {
  int h[16], *d_in, *d_out;
  for (int i = 0; i < 16; i++) h[i] = i;
  cudaMalloc(&d_in, sizeof h);
  cudaMalloc((void **)&d_out, sizeof h);
  cudaMemcpy(d_in, h, sizeof h, cudaMemcpyHostToDevice);
  scale<<<2, 8>>>(d_in, d_out, 3);
  cudaDeviceSynchronize();
  cudaMemcpy(h, d_out, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d\n", h[15]);
  cudaFree(d_in);
  cudaFree(d_out);
  return 0;
}
