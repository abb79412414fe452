//--blockDim=1 --gridDim=2 --buffer=data=1 --buffer=flag=1
// Message passing with a spinning consumer (CUDA-by-Example style volatile flag) and
// no fences: the data read is not ordered after the data write.
__global__ void mp(int *data, volatile int *flag) {
  if (blockIdx.x == 0) {
    data[0] = 42;
    *flag = 1;
  } else {
    while (*flag == 0) {
    }
    __assert(data[0] == 42);
  }
}
