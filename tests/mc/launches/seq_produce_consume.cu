// A host-ordered sequence of two different kernels (issue 13): `produce` fills `buf` with
// plain stores, one element per thread; `consume` reads, with a plain load, the element of
// the *next* thread (in the other block for a block's last thread) and asserts its value.
// Run as two launches (`--launch 'produce<<<2,2>>>(buf, 4)' --launch
// 'consume<<<2,2>>>(buf, out, 4)'`) the loads are ordered after every store by the launch
// boundary: race-free, and each load reads j + 1. `produce_consume` does both in one launch:
// a thread's load of buf[j] races with thread j's store.
#include <weft_cuda.h>
__global__ void produce(int *buf, int n) {
  int i = (int)(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n)
    buf[i] = i + 1;
}
__global__ void consume(int *buf, int *out, int n) {
  int i = (int)(blockIdx.x * blockDim.x + threadIdx.x);
  int j = (i + 1) % n;
  if (i < n) {
    int v = buf[j];
    __assert(v == j + 1);
    out[i] = v;
  }
}
__global__ void produce_consume(int *buf, int *out, int n) {
  int i = (int)(blockIdx.x * blockDim.x + threadIdx.x);
  int j = (i + 1) % n;
  if (i < n) {
    buf[i] = i + 1;
    out[i] = buf[j];
  }
}
