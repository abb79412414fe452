//pass
//--blockDim=64 --gridDim=2
// Calls of non-inlined device functions (with a return value, with a branch, and without a
// return value): weft inlines them when lowering PTX.
__device__ __noinline__ int square_plus(int x, int y) {
  if (x > 10) {
    return x * x + y;
  }
  return x + y;
}
__device__ __noinline__ void store2(int *p, int v) {
  p[0] = v;
  p[1] = v + 1;
}
__global__ void device_calls(const int *in, int *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = square_plus(in[i], 3);
  store2(&out[2 * i], v);
}
