//--blockDim=2 --gridDim=2
// Host-ordered launches of a multi-block kernel (issue 13): a thread's first launch writes
// its slot with a plain store, its second launch reads the slot of the next thread (in the
// other block for a block's last thread) with a plain load; each thread keeps its phase in
// its own word of `phase`. Two launches are race-free (launch 1 happens before launch 2);
// -DONE_LAUNCH does both in one launch: the read races with the other thread's store.
#include <weft_cuda.h>
__global__ void host_blocks(int *slot, int *phase, int *out) {
  int n = (int)(gridDim.x * blockDim.x);
  int g = (int)(blockIdx.x * blockDim.x + threadIdx.x);
#ifdef ONE_LAUNCH
  slot[g] = g + 1;
  out[g] = slot[(g + 1) % n];
#else
  if (phase[g] == 0) {
    slot[g] = g + 1;
  } else {
    int v = slot[(g + 1) % n];
    __assert(v == (g + 1) % n + 1);
    out[g] = v;
  }
  phase[g] = 1;
#endif
}
