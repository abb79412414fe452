//--blockDim=2 --gridDim=1 --buffer=counter=1
// atomicAdd_block from two threads of the same block: block scope includes both.
__global__ void count(int *counter) {
  atomicAdd_block(counter, 1);
}
