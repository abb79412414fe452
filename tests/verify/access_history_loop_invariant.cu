//pass
//--blockDim=32 --gridDim=2
// the loop never touches A: user invariants __no_read/__no_write hold at its head
__global__ void k(int *A, int n) {
  int s = 0;
  for (int i = 0; __invariant(__no_read(A)), __invariant(__no_write(A)), i < n; i++)
    s += i;
  __syncthreads();
  A[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
