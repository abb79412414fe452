//pass
//--blockDim=[*] --gridDim=2 -DWIDTH=3
// Header lines with -D and `*`: a `*` block dimension runs with 32 threads.
__global__ void k(unsigned *A) {
  unsigned gid = threadIdx.x + blockIdx.x * blockDim.x;
  A[gid] = gid * WIDTH;
}
