//--blockDim=2 --gridDim=4
// ttaslock2 (paper 004 Table 1, grid (4, 2)): ttaslock.cu with the acquire relaxed.
#define RELAXED_ACQ
#include "ttaslock.cu"
