//--blockDim=4 --gridDim=6
// caslock2 (paper 004 Table 1, grid (6, 4)): caslock.cu with the acquire relaxed.
#define RELAXED_ACQ
#include "caslock.cu"
