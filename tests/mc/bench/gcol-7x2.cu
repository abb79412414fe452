//--blockDim=2 --gridDim=7
// GCOL7 (paper 004 Table 2, grid (7, 2)): gcol.cu.
#include "gcol.cu"
