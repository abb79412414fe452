//pass
//--blockDim=64 --gridDim=4
// Each thread writes one byte of its own chunk: input[t*chunkSize + chunkSize - padSize], distinct per thread since chunkSize > padSize >= 0. The 32-bit parameters are integers added to the pointer, not arrays.
__global__ void chunks(unsigned char *input, int chunkSize, int totalThreads, int padSize) {
  __requires(chunkSize == 16);
  __requires(totalThreads == 256);
  __requires(padSize == 4);
  int threadIndex = threadIdx.x + blockDim.x * blockIdx.x;
  int chunkIndex = threadIndex * chunkSize;
  if (threadIndex >= totalThreads)
    return;
  input[chunkIndex + chunkSize - padSize] = threadIndex;
}
