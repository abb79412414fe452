//--blockDim=2 --gridDim=4
// Graph colouring (paper 004 Table 2, GCOL4 at grid (4,2); ScoRD/iGUARD's greedy colouring
// with SC accesses, as the paper did). The original alternates two host-ordered launches
// until no conflicts remain: `assign` (each vertex takes the smallest colour its neighbours
// do not have) and `detect` (the host reads the conflict flag). The benchmark is `assign`:
// vertex v (one thread) reads its ring neighbours' colours with seq_cst DEVICE-scope loads and
// publishes its own colour with a seq_cst BLOCK-scope store. A neighbour in another block
// reads that colour: the store's scope does not include the reader: a heterogeneous race.
#include <weft_cuda.h>
__global__ void assign(int *colour) {
  int n = (int)(gridDim.x * blockDim.x);
  int v = (int)(blockIdx.x * blockDim.x + threadIdx.x);
  int left = (v + n - 1) % n, right = (v + 1) % n;
  weft_fence_sc_gpu();
  int cl = weft_ld_acquire_gpu(&colour[left]);
  weft_fence_sc_gpu();
  int cr = weft_ld_acquire_gpu(&colour[right]);
  int c = 0;
  while (c == cl || c == cr) {
    c++;
  }
  weft_fence_sc_cta();
  weft_st_release_cta(&colour[v], c);
}
