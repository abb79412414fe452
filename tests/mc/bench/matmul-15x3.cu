//--blockDim=3 --gridDim=15
// matmul15 (paper 004 Table 2, grid (15, 3)): matmul.cu.
#include "matmul.cu"
