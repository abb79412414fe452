//xfail:RACE
//--blockDim=64 --gridDim=4
// Threads t and t+1 (t even) write the same byte input[(t/2)*chunkSize + chunkSize - padSize] with different values: a write-write race. The 32-bit parameters are integers added to the pointer, not arrays.
__global__ void chunks(unsigned char *input, int chunkSize, int totalThreads, int padSize) {
  __requires(chunkSize == 16);
  __requires(totalThreads == 256);
  __requires(padSize == 4);
  int threadIndex = threadIdx.x + blockDim.x * blockIdx.x;
  int chunkIndex = (threadIndex / 2) * chunkSize;
  if (threadIndex >= totalThreads)
    return;
  input[chunkIndex + chunkSize - padSize] = threadIndex;
}
