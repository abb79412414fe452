//--blockDim=2 --gridDim=4
// caslock2 (paper 004 Table 1, grid (4, 2)): caslock.cu with the acquire relaxed.
#define RELAXED_ACQ
#include "caslock.cu"
