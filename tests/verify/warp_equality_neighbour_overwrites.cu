//xfail:ASSERT
//--blockDim=32 --gridDim=1 --warp-sync=32 --equality-abstraction
// paper 002 §3.3 with lock-step: A[tid] = 1, then thread tid-1 writes A[tid] = 2 in the next instruction (no race: one warp, two instructions), so A[tid] is 2 and the assertion fails; only the bytes a thread writes in the current instruction keep their value across the havoc
__global__ void k(int *A) {
  A[threadIdx.x] = 1;
  A[(threadIdx.x + 1) % 32] = 2;
  int x = A[threadIdx.x];
  __assert(x == 1);
}
