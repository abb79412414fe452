//--local_size=2 --num_groups=4
// caslock1 (paper 004 Table 1, grid (4, 2)): caslock.cl with the release store relaxed.
#define RELAXED_REL
#include "caslock.cl"
