//--blockDim=1 --gridDim=3
// CUDA by Example's spin lock (paper 000 §3, Fig. 2 and the sl-future test): lock() spins on
// atomicCAS(mutex, 0, 1), unlock() is atomicExch(mutex, 0), with no fences (the original).
// Each block's thread takes the lock, counts itself in with an atomic add (an RMW always
// reads the latest value, so `k` is the number of earlier holders), reads the shared value
// and writes it back incremented (relaxed, device scope, as the volatile/ld.cg accesses of
// the original). Without fences nothing orders a holder's accesses after the previous
// holder's: it can read a stale value (k > r) or, with the unlock's exchange overtaking the
// store, a future value: the assertion fails. -DFIXED adds __threadfence() after lock() and
// before unlock() (paper 000's fix): every holder then sees exactly the earlier holders.
#include <weft_cuda.h>
#include <weft_gpuverify.h>
struct Lock {
  int *mutex;
  __device__ bool try_lock() {
    bool ok = atomicCAS(mutex, 0, 1) == 0;
#ifdef FIXED
    if (ok) {
      __threadfence();
    }
#endif
    return ok;
  }
  __device__ void unlock() {
#ifdef FIXED
    __threadfence();
#endif
    atomicExch(mutex, 0);
  }
};
__global__ void spinlock(int *mutex, int *holders, int *value) {
  Lock l{mutex};
  bool done = false;
  while (!done) {
    if (l.try_lock()) {
      int k = weft_atom_add_relaxed_gpu(holders, 1);
      int r = weft_ld_relaxed_gpu(value);
      __assert(r == k);
      weft_st_relaxed_gpu(value, r + 1);
      l.unlock();
      done = true;
    }
  }
}
