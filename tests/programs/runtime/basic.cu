// Registration and the CUDA 12 launch ABI: two kernels, host-to-device and device-to-host
// copies, min/max in host code. Expected output (from the design): the squares 0..7 and
// their sum 140, then "scaled: 0 3 6 ... 21".
#include <cstdio>

__global__ void square(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = i * i;
}

__global__ void scale(const int *in, int *out, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * k;
}

int main() {
  const int n = 8;
  int h[n], *d, *e;
  cudaMalloc(&d, n * sizeof(int));
  cudaMalloc(&e, n * sizeof(int));
  square<<<2, 4>>>(d, n);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  int sum = 0;
  for (int i = 0; i < n; i++) sum += h[i];
  printf("squares:");
  for (int i = 0; i < n; i++) printf(" %d", h[i]);
  printf("\nsum %d min %d max %d\n", sum, min(h[2], h[3]), max(h[2], h[3]));
  for (int i = 0; i < n; i++) h[i] = i;
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  scale<<<1, 32>>>(d, e, n, 3);
  cudaMemcpy(h, e, sizeof h, cudaMemcpyDeviceToHost);
  printf("scaled:");
  for (int i = 0; i < n; i++) printf(" %d", h[i]);
  printf("\n");
  cudaFree(d);
  cudaFree(e);
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
