//--blockDim=4 --gridDim=1
// A warp collective inside a branch (issue 13): only lanes 0 and 1 reach the shuffle whose
// member mask names all four lanes; lanes 2 and 3 finish. The members never all arrive:
// lanes 0 and 1 wait forever (divergence, reported like barrier divergence).
#include <weft_cuda.h>
__global__ void warp_divergent_shfl(int *out) {
  int l = (int)threadIdx.x;
  int v = l;
  if (l < 2) {
    v = __shfl_xor_sync(0xfu, v, 1);
  }
  out[l] = v;
}
