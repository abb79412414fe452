//--blockDim=4 --gridDim=6
// XF-Barrier2 (paper 004 Table 1, grid (6, 4)): xf_barrier.cu with the flag loads relaxed.
#define RELAXED_ACQ
#include "xf_barrier.cu"
