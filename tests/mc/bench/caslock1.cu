//--blockDim=2 --gridDim=4
// caslock1 (paper 004 Table 1, grid (4, 2)): caslock.cu with the release store relaxed.
#define RELAXED_REL
#include "caslock.cu"
