//--local_size=2 --num_groups=4
// ttaslock2 (paper 004 Table 1, grid (4, 2)): ttaslock.cl with the acquire relaxed.
#define RELAXED_ACQ
#include "ttaslock.cl"
