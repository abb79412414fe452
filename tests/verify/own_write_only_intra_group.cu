//xfail:ASSERT
//--blockDim=64 --gridDim=2 --only-intra-group
// races between blocks are not checked (--only-intra-group): block 1's write of A[tid] to global memory may land between block 0's write and read, so the read may see 1 (the fence only keeps clang from forwarding the store)
__global__ void k(int *A) {
  unsigned i = threadIdx.x;
  A[i] = blockIdx.x;
  __threadfence_block();
  __assert(A[i] == blockIdx.x);
}
