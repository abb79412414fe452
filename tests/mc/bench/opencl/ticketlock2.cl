//--local_size=2 --num_groups=4
// ticketlock2 (paper 004 Table 1, grid (4, 2)): ticketlock.cl with the acquire relaxed.
#define RELAXED_ACQ
#include "ticketlock.cl"
