//--blockDim=4 --gridDim=2
// CUDA by Example dot product, fixed (paper 000 §3): cbe_dot.cu with __threadfence() around
// the critical section.
#define FIXED
#include "cbe_dot.cu"
