// cudaMallocManaged: one pointer used by the host and by two kernels. Expected output from
// the design: the host writes i, each kernel doubles, so 4*i.
#include <cstdio>

__global__ void twice(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] *= 2;
}

int main() {
  const int n = 6;
  int *a;
  cudaMallocManaged(&a, n * sizeof(int));
  for (int i = 0; i < n; i++) a[i] = i;
  twice<<<2, 3>>>(a, n);
  cudaDeviceSynchronize();
  twice<<<2, 3>>>(a, n);
  cudaDeviceSynchronize();
  printf("managed");
  for (int i = 0; i < n; i++) printf(" %d", a[i]);
  printf("\n");
  cudaFree(a);
  return 0;
}
