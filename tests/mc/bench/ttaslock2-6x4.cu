//--blockDim=4 --gridDim=6
// ttaslock2 (paper 004 Table 1, grid (6, 4)): ttaslock.cu with the acquire relaxed.
#define RELAXED_ACQ
#include "ttaslock.cu"
