//--blockDim=1 --gridDim=2 --buffer=counter=1
// The race-free version: device-scope atomicAdd from two blocks.
__global__ void count(int *counter) {
  atomicAdd(counter, 1);
}
