//--blockDim=1 --gridDim=2
// Work-stealing deque, fixed (paper 000 §3, Fig. 6 with the (+) fences): ws_deque.cu with
// -DFIXED.
#define FIXED
#include "ws_deque.cu"
