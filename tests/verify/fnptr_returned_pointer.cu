//pass
//--blockDim=64 --gridDim=1
// hand-derived: the function called through the pointer returns the array it was given; each thread writes its own element of it, so the pointer returned keeps its array and the kernel verifies
__device__ int *same(int *p) { return p; }
__device__ int *also_same(int *p) { return p + 0; }
typedef int *(*pick_t)(int *);
__global__ void k(int *A, pick_t f) {
  __requires(f == same | f == also_same);
  int *q = f(A);
  q[threadIdx.x] = threadIdx.x;
}
