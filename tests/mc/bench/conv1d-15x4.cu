//--blockDim=4 --gridDim=15
// 1dconv15 (paper 004 Table 2, grid (15, 4)): conv1d.cu.
#include "conv1d.cu"
