//--blockDim=1 --gridDim=2 --buffer=data=1 --buffer=flag=1 --buffer=out=1
// Message passing across blocks without fences: the relaxed atomics on the flag do not
// synchronise, so the plain data accesses race and the consumer may read 0.
__global__ void mp(int *data, int *flag, int *out) {
  if (blockIdx.x == 0) {
    data[0] = 42;
    atomicExch(flag, 1);
  } else {
    int f = atomicAdd(flag, 0);
    if (f == 1) {
      int d = data[0];
      __assert(d == 42);
      out[0] = d;
    }
  }
}
