//pass
//--blockDim=4 --gridDim=1
// Function pointers (an indirect `call` with a `.callprototype`): chosen per thread and by
// a kernel argument.
typedef int (*op_t)(int);
__device__ __noinline__ int twice(int x) { return 2 * x; }
__device__ __noinline__ int square(int x) { return x * x; }
__device__ __noinline__ int negate(int x) { return -x; }

__global__ void apply(int *out, int which) {
  int t = threadIdx.x;
  op_t f = (t % 2 == 0) ? twice : square;
  op_t g = which == 1 ? negate : twice;
  out[t] = f(t) + 100 * g(t);
}
