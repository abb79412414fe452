//--blockDim=3 --gridDim=7
// matmul7 (paper 004 Table 2, grid (7, 3)): matmul.cu.
#include "matmul.cu"
