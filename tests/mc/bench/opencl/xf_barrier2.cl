//--local_size=3 --num_groups=4
// XF-Barrier2 (paper 004 Table 1, grid (4, 3)): xf_barrier.cl with the flag loads relaxed.
#define RELAXED_ACQ
#include "xf_barrier.cl"
