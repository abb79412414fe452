//--blockDim=4 --gridDim=20
// 1dconv20 (paper 004 Table 2, grid (20, 4)): conv1d.cu.
#include "conv1d.cu"
