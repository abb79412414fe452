//--blockDim=1 --gridDim=2 --buffer=data=1 --buffer=flag=1 --buffer=out=1
// Message passing across blocks with __threadfence on both sides: when the consumer sees
// the flag, the fences' synchronisation orders the data write before the data read.
__global__ void mp(int *data, int *flag, int *out) {
  if (blockIdx.x == 0) {
    data[0] = 42;
    __threadfence();
    atomicExch(flag, 1);
  } else {
    int f = atomicAdd(flag, 0);
    __threadfence();
    if (f == 1) {
      int d = data[0];
      __assert(d == 42);
      out[0] = d;
    }
  }
}
