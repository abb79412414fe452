//--blockDim=2 --gridDim=4
// XF-Barrier with barrier divergence (paper 004 Table 3, XF-Barrier4 at grid (4,2)): the
// inter-block barrier of xf_barrier.cu with SC (seq_cst, device-scope) flag accesses, where
// block 0's CTA barrier is inside the loop that waits for the other blocks' flags. Only the
// block-0 threads that have a block to wait for reach it (with (4,2): thread 0 waits for
// blocks 1 and 3 and reaches the barrier twice, thread 1 for block 2 once): divergence.
#include <weft_cuda.h>
__global__ void xf_barrier_div(int *flag_in, int *flag_out, int *data, int *out) {
  unsigned b = blockIdx.x, t = threadIdx.x, nb = gridDim.x, nt = blockDim.x;
  data[b * nt + t] = (int)(b * nt + t + 1);
  __syncthreads();
  if (b == 0) {
    for (unsigned i = t + 1; i < nb; i += nt) {
      weft_fence_sc_gpu();
      while (weft_ld_acquire_gpu(&flag_in[i]) != 1) {
      }
      __syncthreads();
    }
    for (unsigned i = t + 1; i < nb; i += nt) {
      weft_fence_sc_gpu();
      weft_st_release_gpu(&flag_out[i], 1);
    }
  } else {
    if (t == 0) {
      weft_fence_sc_gpu();
      weft_st_release_gpu(&flag_in[b], 1);
      weft_fence_sc_gpu();
      while (weft_ld_acquire_gpu(&flag_out[b]) != 1) {
      }
    }
  }
  __syncthreads();
  out[b * nt + t] = data[((b + 1) % nb) * nt + t];
}
