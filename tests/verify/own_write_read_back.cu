//pass
//--blockDim=64 --gridDim=4
// each thread reads back the element of the global array it wrote itself in the same barrier interval (the fence keeps clang from forwarding the store; it orders nothing here) and no other thread writes it, so it reads its own value
__global__ void k(int *A) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  A[i] = 3 * i;
  __threadfence_block();
  __assert(A[i] == 3 * i);
}
