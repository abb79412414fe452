//xfail:RACE
//--gridDim=2 --blockDim=32
// hand-derived: the program's own size_t and clock_t as in cuda_typedef_clash.cu; every thread writes d[0] with its own index (a write-write race of different values)
typedef unsigned int size_t;
typedef unsigned int clock_t;
__global__ void k(clock_t *d, size_t n) {
  size_t t = blockIdx.x * blockDim.x + threadIdx.x;
  d[0] = (clock_t)t;
}
