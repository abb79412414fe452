//--blockDim=4 --gridDim=12
// 1D convolution (paper 004 Table 2, 1dconv12 at grid (12,4); ScoRD/iGUARD's 1dconv with its
// accesses made atomic, as the paper did). The original is two launches, host-ordered:
//   launch 1: conv1d   (each thread convolves one output point with a 3-tap mask)
//   launch 2: boundary (the host re-reads `out`)
// The race is inside launch 1, so the benchmark is launch 1 alone. Each block stages its tile
// in shared memory with a zero halo (barrier), computes the in-tile part of each output, and
// the block's edge threads add the cross-tile taps into the neighbouring tiles' output
// elements with seq_cst BLOCK-scope atomics: a neighbouring block does the same to the same
// element with its own block scope, so the two atomic accesses are not scope-inclusive: a
// heterogeneous race (paper 004 §2.1).
#include <weft_cuda.h>
#define TILE 4
__global__ void conv1d(const int *in, const int *mask, int *out) {
  int n = (int)(gridDim.x * blockDim.x);
  __shared__ int tile[TILE + 2];
  int t = (int)threadIdx.x, g = (int)(blockIdx.x * blockDim.x) + t;
  tile[t + 1] = in[g];
  if (t == 0) {
    tile[0] = 0;
    tile[TILE + 1] = 0;
  }
  __syncthreads();
  int sum = mask[0] * tile[t] + mask[1] * tile[t + 1] + mask[2] * tile[t + 2];
  weft_fence_sc_cta();
  weft_atom_add_acq_rel_cta(&out[g], sum);
  if (t == 0 && g > 0) {
    weft_fence_sc_cta();
    weft_atom_add_acq_rel_cta(&out[g - 1], mask[2] * tile[t + 1]);
  }
  if (t == TILE - 1 && g + 1 < n) {
    weft_fence_sc_cta();
    weft_atom_add_acq_rel_cta(&out[g + 1], mask[0] * tile[t + 1]);
  }
}
