//--blockDim=8 --gridDim=1
// `weft mc --warp-size` changes a shuffle's outcome (issue 13): every thread takes the value
// of the thread 4 lanes down. With 32-lane warps thread t < 4 gets t + 4 (its source is in
// its warp) and the assertion holds; with --warp-size 4 the source lane t + 4 is outside
// the 4-lane warp, so (PTX: the source is not a member; the emulator's shfl_source and
// weft mc: the lane's own value) thread t gets t and the assertion fails.
#include <weft_cuda.h>
__global__ void warp_size_shfl(int *out) {
  int t = (int)threadIdx.x;
  int u = __shfl_down_sync(0xffffffffu, t, 4);
  if (t < 4)
    __assert(u == t + 4);
  out[t] = u;
}
