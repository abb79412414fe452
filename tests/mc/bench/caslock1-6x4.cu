//--blockDim=4 --gridDim=6
// caslock1 (paper 004 Table 1, grid (6, 4)): caslock.cu with the release store relaxed.
#define RELAXED_REL
#include "caslock.cu"
