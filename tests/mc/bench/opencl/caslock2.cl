//--local_size=2 --num_groups=4
// caslock2 (paper 004 Table 1, grid (4, 2)): caslock.cl with the acquire relaxed.
#define RELAXED_ACQ
#include "caslock.cl"
