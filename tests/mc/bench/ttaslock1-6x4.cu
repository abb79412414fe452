//--blockDim=4 --gridDim=6
// ttaslock1 (paper 004 Table 1, grid (6, 4)): ttaslock.cu with the release store relaxed.
#define RELAXED_REL
#include "ttaslock.cu"
