//--blockDim=2 --gridDim=15
// GCON15 (paper 004 Table 2, grid (15, 2)): gcon.cu.
#include "gcon.cu"
