//--blockDim=3 --gridDim=10
// matmul10 (paper 004 Table 2, grid (10, 3)): matmul.cu.
#include "matmul.cu"
