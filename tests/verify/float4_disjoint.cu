//pass
//--blockDim=64 --gridDim=2
// 16-byte elements per thread
struct f4 { float x, y, z, w; };
__global__ void k(f4 *A, const f4 *B) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  f4 v = B[i];
  v.x = v.x + v.w;
  A[i] = v;
}
