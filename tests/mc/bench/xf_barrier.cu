//--blockDim=3 --gridDim=4
// XF-Barrier (paper 004 Table 1; Xiao and Feng's inter-block barrier, as in Dartagnan's GPU
// benchmarks): every thread writes its slot of `data` (plain), the blocks meet at a global
// barrier built from CTA barriers and flags (block b's thread 0 raises flag_in[b] with a
// release store; block 0's threads wait for the flags with acquire loads, meet at a CTA
// barrier, and raise flag_out[b] with release stores; block b's thread 0 waits for it with an
// acquire load), then every thread reads the slot of the next block (plain). -DRELAXED_REL
// (XF-Barrier1) makes the flag stores relaxed, -DRELAXED_ACQ (XF-Barrier2) the flag loads:
// the data accesses of different blocks then race.
#include <weft_cuda.h>
#ifdef RELAXED_ACQ
#define FLAG_LD weft_ld_relaxed_gpu
#else
#define FLAG_LD weft_ld_acquire_gpu
#endif
#ifdef RELAXED_REL
#define FLAG_ST weft_st_relaxed_gpu
#else
#define FLAG_ST weft_st_release_gpu
#endif
__global__ void xf_barrier(int *flag_in, int *flag_out, int *data, int *out) {
  unsigned b = blockIdx.x, t = threadIdx.x, nb = gridDim.x, nt = blockDim.x;
  data[b * nt + t] = (int)(b * nt + t + 1);
  __syncthreads();
  if (b == 0) {
    for (unsigned i = t + 1; i < nb; i += nt) {
      while (FLAG_LD(&flag_in[i]) != 1) {
      }
    }
    __syncthreads();
    for (unsigned i = t + 1; i < nb; i += nt) {
      FLAG_ST(&flag_out[i], 1);
    }
  } else {
    if (t == 0) {
      FLAG_ST(&flag_in[b], 1);
      while (FLAG_LD(&flag_out[b]) != 1) {
      }
    }
  }
  __syncthreads();
  out[b * nt + t] = data[((b + 1) % nb) * nt + t];
}
