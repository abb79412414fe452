//--blockDim=3 --gridDim=4
// Matrix multiply (paper 004 Table 2, matmul4 at grid (4,3); ScoRD/iGUARD's tiled matmul with
// SC accesses, as the paper did). The original is two host-ordered launches: `zero` (C = 0)
// then `matmul` (split-K: block k multiplies the k-th column strip of A by the k-th row strip
// of B and accumulates into C). The benchmark is `matmul` (C starts zeroed): thread t of block
// k computes A[t][k] * B[k][j] for every j and adds it into C[t][j] with a seq_cst BLOCK-scope
// atomic add; every block adds into the same C elements: a heterogeneous race between blocks.
#include <weft_cuda.h>
#define M 3
__global__ void matmul(const int *a, const int *b, int *c) {
  int k_total = (int)gridDim.x;
  int k = (int)blockIdx.x, t = (int)threadIdx.x;
  __shared__ int brow[M];
  brow[t] = b[k * M + t];
  __syncthreads();
  int aik = a[t * k_total + k];
  for (int j = 0; j < M; j++) {
    weft_fence_sc_cta();
    weft_atom_add_acq_rel_cta(&c[t * M + j], aik * brow[j]);
  }
}
