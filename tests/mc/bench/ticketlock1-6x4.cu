//--blockDim=4 --gridDim=6
// ticketlock1 (paper 004 Table 1, grid (6, 4)): ticketlock.cu with the release store relaxed.
#define RELAXED_REL
#include "ticketlock.cu"
