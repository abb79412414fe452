//--blockDim=2 --gridDim=4
// ticketlock1 (paper 004 Table 1, grid (4, 2)): ticketlock.cu with the release store relaxed.
#define RELAXED_REL
#include "ticketlock.cu"
