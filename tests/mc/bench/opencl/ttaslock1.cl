//--local_size=2 --num_groups=4
// ttaslock1 (paper 004 Table 1, grid (4, 2)): ttaslock.cl with the release store relaxed.
#define RELAXED_REL
#include "ttaslock.cl"
