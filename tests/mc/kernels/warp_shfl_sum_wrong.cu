//--blockDim=4 --gridDim=1
// warp_shfl_sum.cu asserting the wrong sum (11): the assertion must fail.
#define WRONG
#include "warp_shfl_sum.cu"
