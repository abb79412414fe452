//--blockDim=2 --gridDim=5
// GCON5 (paper 004 Table 2, grid (5, 2)): gcon.cu.
#include "gcon.cu"
