//pass
//--gridDim=2 --blockDim=32
// hand-derived: the program's own 32-bit size_t and clock_t (as GPUVerify's kernels declare them, clashing with the C library's) are its types; thread t writes only d[t] (64 distinct), and sizeof(size_t) is 4 here
typedef unsigned int size_t;
typedef unsigned int clock_t;
__global__ void k(clock_t *d, size_t n) {
  size_t t = blockIdx.x * blockDim.x + threadIdx.x;
  __assert(sizeof(size_t) == 4);
  if (t < n)
    d[t] = (clock_t)t;
}
