//--blockDim=64 --gridDim=2
// In-place smoothing: each thread overwrites its element with the average of its
// neighbours, which other threads overwrite concurrently.
__global__ void k(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n - 1)
    a[i] = (a[i - 1] + a[i + 1]) * 0.5f; // @S
}
