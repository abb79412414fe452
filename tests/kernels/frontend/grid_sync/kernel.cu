//pass
//--blockDim=32 --gridDim=2
// Cooperative groups: this_grid().sync() between a write phase and a read of another
// block's data (every block is resident on the emulator).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void rotate(int *A, int *out) {
  cg::grid_group g = cg::this_grid();
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  A[gid] = gid;
  g.sync();
  out[gid] = A[(gid + 32) % 64];
}
