//xfail:RACE
//--blockDim=64 --gridDim=1
// paper 002 §5 (Parboil histo_main): a plain read of a bucket others update atomically
__global__ void histo(const int *A, unsigned *B, unsigned *seen) {
  int t = A[threadIdx.x];
  seen[threadIdx.x] = B[t];
  atomicAdd(&B[t], 1u);
}
