//--blockDim=32 --gridDim=4
__global__ void k(int *a, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    a[i] = a[i] * 2 + 1;
}
