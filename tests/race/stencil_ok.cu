//--blockDim=64 --gridDim=2
#define B 64
__global__ void k(const int *in, int *out, int n) {
  __shared__ int tile[B + 2];
  int g = blockIdx.x * B + threadIdx.x;
  int l = threadIdx.x + 1;
  tile[l] = in[g];
  if (threadIdx.x == 0)
    tile[0] = g > 0 ? in[g - 1] : 0;
  if (threadIdx.x == B - 1)
    tile[B + 1] = g + 1 < n ? in[g + 1] : 0;
  __syncthreads();
  out[g] = tile[l - 1] + tile[l] + tile[l + 1];
}
