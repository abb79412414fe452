//--blockDim=4 --gridDim=1
// Warp shuffles up and by index (issue 13): an inclusive prefix sum with __shfl_up_sync
// (lanes below the offset keep their own value), then every lane takes lane 3's total with
// __shfl_sync.
#include <weft_cuda.h>
__global__ void warp_shfl_up(int *out) {
  int l = (int)threadIdx.x;
  int v = l + 1;
  int u = __shfl_up_sync(0xfu, v, 1);
  if (l >= 1) v += u;
  u = __shfl_up_sync(0xfu, v, 2);
  if (l >= 2) v += u;
  int total = __shfl_sync(0xfu, v, 3);
  __assert(v == (l + 1) * (l + 2) / 2);
  __assert(total == 10);
  out[l] = v;
}
