//--blockDim=4 --gridDim=6
// XF-Barrier6 (paper 004 Table 3, grid (6,4)): xf_barrier_div.cu.
#include "xf_barrier_div.cu"
