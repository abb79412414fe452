//pass
//--blockDim=64 --gridDim=1
// hand-derived: __builtin_unreachable() stands where no thread goes (threadIdx.x < 64 with 64 threads per block), so the trap it becomes is unreachable and the distinct-element writes verify
__global__ void k(int *A) {
  if (threadIdx.x >= 64)
    __builtin_unreachable();
  A[threadIdx.x] = 1;
}
