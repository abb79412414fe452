//--blockDim=2 --gridDim=1
// warp_syncwarp.cu without the __syncwarp: a data race on the shared slots.
#define NOSYNC
#include "warp_syncwarp.cu"
