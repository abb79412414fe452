//--blockDim=2 --gridDim=4
// ttaslock1 (paper 004 Table 1, grid (4, 2)): ttaslock.cu with the release store relaxed.
#define RELAXED_REL
#include "ttaslock.cu"
