//xfail:ASSERT
//--blockDim=32 --gridDim=1
// `assert` without <assert.h> (nvcc declares it for device code): the assertion fails for the threads with an odd index
__global__ void k(int *out) {
  assert(threadIdx.x % 2 == 0);
  out[threadIdx.x] = 1;
}
