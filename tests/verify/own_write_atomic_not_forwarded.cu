//xfail:ASSERT
//--blockDim=64 --gridDim=1
// atomics do not race with each other (paper 002 §4.1): thread tid-1's atomicExch of A[tid] may land between thread tid's atomicExch and its atomic read, which may then return 2
__global__ void k(int *A) {
  unsigned i = threadIdx.x;
  atomicExch(&A[i], 1);
  atomicExch(&A[(i + 1) % 64], 2);
  __assert(atomicAdd(&A[i], 0) == 1);
}
