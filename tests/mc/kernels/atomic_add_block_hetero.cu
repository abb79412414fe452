//--blockDim=1 --gridDim=2 --buffer=counter=1
// Two blocks increment one global counter with atomicAdd_block: block-scope atomics of
// threads in different blocks are not mutually in scope.
__global__ void count(int *counter) {
  atomicAdd_block(counter, 1);
}
