//xfail:INVARIANT
//--blockDim=32 --gridDim=1
// the loop starts with k = 0, so the user invariant k == 1 does not hold on loop entry (it is preserved: k stays 1 once it is)
__global__ void k(int *A, int n) {
  int k = 0;
  for (int i = 0; __invariant(k == 1), i < n; i++) {
    A[threadIdx.x] = k;
  }
}
