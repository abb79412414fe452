//--blockDim=2 --gridDim=10
// GCOL10 (paper 004 Table 2, grid (10, 2)): gcol.cu.
#include "gcol.cu"
