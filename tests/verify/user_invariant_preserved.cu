//pass
//--blockDim=32 --gridDim=1
// s starts at 0 and grows by 2 per iteration while i grows by 1: s == 2 * i holds on entry and after every iteration
__global__ void k(int *A, int n) {
  int s = 0;
  for (int i = 0; __invariant(s == 2 * i), i < n; i++) {
    s += 2;
  }
  A[threadIdx.x] = s;
}
