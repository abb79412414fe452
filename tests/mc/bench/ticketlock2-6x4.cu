//--blockDim=4 --gridDim=6
// ticketlock2 (paper 004 Table 1, grid (6, 4)): ticketlock.cu with the acquire relaxed.
#define RELAXED_ACQ
#include "ticketlock.cu"
