//--blockDim=4 --gridDim=25
// 1dconv25 (paper 004 Table 2, grid (25, 4)): conv1d.cu.
#include "conv1d.cu"
