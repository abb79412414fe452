//--blockDim=3 --gridDim=5
// matmul5 (paper 004 Table 2, grid (5, 3)): matmul.cu.
#include "matmul.cu"
