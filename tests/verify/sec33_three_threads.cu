//xfail:ASSERT
//--blockDim=32 --gridDim=1 --warp-sync=32 --equality-abstraction
// paper 002 §3.3: after A[tid]=0 by the whole warp no element is 1; the assertion must fail (needs the havoc after each write)
__global__ void k(int *A) {
  if (threadIdx.x == 0) { A[0] = 1; A[1] = 1; A[2] = 1; }
  A[threadIdx.x] = 0;
  if (threadIdx.x == 0) __assert(A[0] == 1 || A[1] == 1 || A[2] == 1);
}
