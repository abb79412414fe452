//--blockDim=2 --gridDim=5
// GCOL5 (paper 004 Table 2, grid (5, 2)): gcol.cu.
#include "gcol.cu"
