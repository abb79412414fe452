//--blockDim=2 --gridDim=2
// host_blocks.cu with the store and the load in one launch: a data race.
#define ONE_LAUNCH
#include "host_blocks.cu"
