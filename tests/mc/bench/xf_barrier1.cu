//--blockDim=3 --gridDim=4
// XF-Barrier1 (paper 004 Table 1, grid (4, 3)): xf_barrier.cu with the flag stores relaxed.
#define RELAXED_REL
#include "xf_barrier.cu"
