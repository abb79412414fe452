//--blockDim=1 --gridDim=3
// CUDA by Example spin lock, fixed (paper 000 §3): cbe_spinlock.cu with __threadfence()
// after taking the lock and before releasing it.
#define FIXED
#include "cbe_spinlock.cu"
