//--blockDim=1 --gridDim=2
// Repair test (refusal): two blocks store a float to one element with plain stores, a data
// race. A relaxed atomic store needs an int or unsigned int (weft's atomic helpers, like
// CUDA's atomicExch for integers): the edited kernel does not compile, so repair refuses
// with the reason and writes nothing.
#include <weft_cuda.h>
__global__ void float_race(float *a) {
  a[0] = 1.5f + blockIdx.x;
}
