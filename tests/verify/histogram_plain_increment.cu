//xfail:RACE
//--blockDim=64 --gridDim=1
// paper 002 §2.2: the non-atomic increment races
__global__ void histo(const int *A, unsigned *B) {
  int t = A[threadIdx.x];
  B[t]++;
}
