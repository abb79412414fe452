//pass
//--blockDim=32 --gridDim=4
// thread t fills B[t*64 .. t*64+63] in a loop: slices of distinct threads are disjoint
__global__ void k(float *B) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  for (unsigned j = 0; j < 64; j++)
    B[t * 64 + j] = 1.0f;
}
