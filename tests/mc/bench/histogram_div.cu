//--blockDim=2 --gridDim=4
// histogram with a divergent barrier (paper 004 Table 3, histogram4 at grid (4,2); the
// histogram of Data Parallel C++ ch. 19 with a barrier divergence bug introduced, as the paper
// did). Each block zeroes a shared histogram, counts its inputs into it with relaxed
// block-scope atomics, and merges it into the global histogram with device-scope atomics. The
// bug: the barrier before the merge is inside `if (bin < BINS)`, which only some threads of
// a block take, so the others finish while those wait: barrier divergence.
#include <weft_cuda.h>
#define BINS 4
__global__ void histogram(const int *in, int *hist) {
  __shared__ int local[BINS];
  unsigned t = threadIdx.x;
  for (unsigned i = t; i < BINS; i += blockDim.x) {
    local[i] = 0;
  }
  __syncthreads();
  int bin = (in[blockIdx.x * blockDim.x + t] * 5) % 8;
  if (bin < BINS) {
    weft_atom_add_relaxed_cta(&local[bin], 1);
    __syncthreads();
  }
  for (unsigned i = t; i < BINS; i += blockDim.x) {
    weft_atom_add_relaxed_gpu(&hist[i], weft_ld_relaxed_cta(&local[i]));
  }
}
