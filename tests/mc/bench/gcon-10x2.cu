//--blockDim=2 --gridDim=10
// GCON10 (paper 004 Table 2, grid (10, 2)): gcon.cu.
#include "gcon.cu"
