//--blockDim=32 --gridDim=1
// `if (t < 16) A[o] = 1; else A[o] = 2;` in plain CUDA: clang -O1 compiles it to a select
// (`selp`) and one store, so the two paths become lanes of one instruction.
__global__ void k(int *A, int o) {
  if (threadIdx.x < 16) A[o] = 1; else A[o] = 2; // @S
}
