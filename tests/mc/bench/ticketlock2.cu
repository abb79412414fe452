//--blockDim=2 --gridDim=4
// ticketlock2 (paper 004 Table 1, grid (4, 2)): ticketlock.cu with the acquire relaxed.
#define RELAXED_ACQ
#include "ticketlock.cu"
