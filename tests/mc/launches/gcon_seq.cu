// Graph connectivity (paper 004 Table 2, GCON) as the host program runs it: a sequence of
// two different kernels, `init_labels` (every vertex its own label, plain stores) then
// `propagate` (the benchmark's kernel, as in tests/mc/bench/gcon.cu: thread e owns the ring
// edge (e, e+1 mod n) and lowers the larger end's label with a relaxed BLOCK-scope atomic
// min). Launched `--launch 'init_labels<<<4,2>>>(label)' --launch
// 'propagate<<<4,2>>>(label, changed)'`: the plain stores of the first launch happen before
// every access of the second (no data race), and the second has the paper's heterogeneous
// race (edges of two blocks share a vertex).
#include <weft_cuda.h>
__global__ void init_labels(int *label) {
  int v = (int)(blockIdx.x * blockDim.x + threadIdx.x);
  label[v] = v;
}
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
