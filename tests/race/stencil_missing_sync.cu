//--blockDim=64 --gridDim=2
// 1-D 3-point stencil with a shared tile and halo; the barrier after loading is missing.
#define B 64
__global__ void k(const int *in, int *out, int n) {
  __shared__ int tile[B + 2];
  int g = blockIdx.x * B + threadIdx.x;
  int l = threadIdx.x + 1;
  tile[l] = in[g]; // @LOAD
  if (threadIdx.x == 0)
    tile[0] = g > 0 ? in[g - 1] : 0; // @HALO
  if (threadIdx.x == B - 1)
    tile[B + 1] = g + 1 < n ? in[g + 1] : 0;
  out[g] = tile[l - 1] + tile[l] + tile[l + 1]; // @USE
}
