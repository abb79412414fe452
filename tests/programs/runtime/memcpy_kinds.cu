// Every cudaMemcpyKind (HostToHost, HostToDevice, DeviceToHost, DeviceToDevice, Default),
// cudaMemset, the Async variants on a stream, pinned host memory and events. Expected output
// from the design: each line names the kind and the values it copied.
#include <cstdio>
#include <cstring>

__global__ void add_one(int *a, int n) {
  int i = threadIdx.x;
  if (i < n) a[i] += 1;
}

int main() {
  const int n = 4;
  int src[n] = {10, 20, 30, 40}, dst[n] = {0, 0, 0, 0};
  int *d1, *d2, *pinned;
  cudaMalloc(&d1, sizeof src);
  cudaMalloc(&d2, sizeof src);
  cudaMallocHost(&pinned, sizeof src);
  cudaMemcpy(dst, src, sizeof src, cudaMemcpyHostToHost);
  printf("HostToHost %d %d %d %d\n", dst[0], dst[1], dst[2], dst[3]);
  cudaMemcpy(d1, src, sizeof src, cudaMemcpyHostToDevice);
  cudaMemcpy(d2, d1, sizeof src, cudaMemcpyDeviceToDevice);
  add_one<<<1, n>>>(d2, n);
  cudaMemcpy(dst, d2, sizeof src, cudaMemcpyDeviceToHost);
  printf("DeviceToDevice+1 %d %d %d %d\n", dst[0], dst[1], dst[2], dst[3]);
  cudaMemcpy(pinned, d1, sizeof src, cudaMemcpyDefault);
  printf("Default %d %d %d %d\n", pinned[0], pinned[1], pinned[2], pinned[3]);
  cudaMemset(d1, 0, sizeof src);
  cudaMemcpy(dst, d1, sizeof src, cudaMemcpyDefault);
  printf("Memset %d %d %d %d\n", dst[0], dst[1], dst[2], dst[3]);
  cudaStream_t s;
  cudaEvent_t a, b;
  cudaStreamCreate(&s);
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  cudaEventRecord(a, s);
  cudaMemcpyAsync(d1, pinned, sizeof src, cudaMemcpyHostToDevice, s);
  add_one<<<1, n, 0, s>>>(d1, n);
  cudaMemsetAsync(d2, 0, sizeof src, s);
  cudaMemcpyAsync(dst, d1, sizeof src, cudaMemcpyDeviceToHost, s);
  cudaEventRecord(b, s);
  cudaStreamSynchronize(s);
  cudaEventSynchronize(b);
  float ms = -1;
  cudaEventElapsedTime(&ms, a, b);
  printf("Async+1 %d %d %d %d\n", dst[0], dst[1], dst[2], dst[3]);
  printf("elapsed %s\n", ms > 0 ? "positive" : "not positive");
  int bad = cudaMemcpy(dst, src, sizeof src, cudaMemcpyHostToDevice);
  printf("HostToDevice into host memory: %s\n", cudaGetErrorName((cudaError_t)bad));
  cudaGetLastError();
  cudaStreamDestroy(s);
  cudaFreeHost(pinned);
  cudaFree(d1);
  cudaFree(d2);
  return 0;
}
