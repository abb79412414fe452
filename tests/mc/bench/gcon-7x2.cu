//--blockDim=2 --gridDim=7
// GCON7 (paper 004 Table 2, grid (7, 2)): gcon.cu.
#include "gcon.cu"
