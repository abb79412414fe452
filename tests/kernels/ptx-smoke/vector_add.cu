//pass
//--blockDim=256 --gridDim=4
// Vector addition: one element per thread, no sharing.
__global__ void vector_add(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    c[i] = a[i] + b[i];
  }
}
