//pass
//--blockDim=32 --gridDim=1 --warp-sync=32 --equality-abstraction
// paper 002 §3.3 with lock-step: after A[tid] = 1 by the whole warp the other threads wrote A too, but none wrote A[tid] in that instruction (each writes its own element), so it reads back 1; the write to B does not touch A (pointer parameters do not alias)
__global__ void k(int *A, int *B) {
  A[threadIdx.x] = 1;
  B[threadIdx.x] = 2;
  int x = A[threadIdx.x];
  __assert(x == 1);
}
