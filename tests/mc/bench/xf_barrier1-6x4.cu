//--blockDim=4 --gridDim=6
// XF-Barrier1 (paper 004 Table 1, grid (6, 4)): xf_barrier.cu with the flag stores relaxed.
#define RELAXED_REL
#include "xf_barrier.cu"
