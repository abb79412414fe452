//--blockDim=2 --gridDim=4
// Graph connectivity (paper 004 Table 2, GCON4 at grid (4,2); ScoRD/iGUARD's connected
// components by label propagation, with relaxed accesses only, as the paper says). The
// original loops host-side: launch `propagate` until a launch changes nothing (the host reads
// `changed`). One launch is the benchmark: thread e owns the ring edge (e, e+1 mod n) and lowers the
// label of the larger end to the smaller one with a relaxed BLOCK-scope atomic min. Edges of
// different blocks share vertices , so two blocks update the same
// label with block-scoped atomics: a heterogeneous race.
#include <weft_cuda.h>
__global__ void propagate(int *label, int *changed) {
  int n = (int)(gridDim.x * blockDim.x);
  int e = (int)(blockIdx.x * blockDim.x + threadIdx.x);
  int u = e, v = (e + 1) % n;
  int lu = weft_ld_relaxed_gpu(&label[u]);
  int lv = weft_ld_relaxed_gpu(&label[v]);
  if (lu < lv) {
    atomicMin_block(&label[v], lu);
    weft_st_relaxed_gpu(changed, 1);
  } else if (lv < lu) {
    atomicMin_block(&label[u], lv);
    weft_st_relaxed_gpu(changed, 1);
  }
}
