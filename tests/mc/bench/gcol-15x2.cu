//--blockDim=2 --gridDim=15
// GCOL15 (paper 004 Table 2, grid (15, 2)): gcol.cu.
#include "gcol.cu"
