//xfail:MEMORY
//--blockDim=64 --gridDim=1
// hand-derived: thread 0 stores through a null pointer: undefined behaviour, which clang -O1 compiles as unreachable, deleting the branch (weft said "verified" before issue 27); compiled with -trap-unreachable the branch is a trap that thread 0 reaches, reported
__global__ void k(int *A) {
  int *p = 0;
  if (threadIdx.x == 0)
    *p = 1;
  A[threadIdx.x] = 1;
}
