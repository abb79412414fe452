//--blockDim=2 --gridDim=3
// ttaslock (paper 004 Table 1; Dartagnan's GPU benchmarks): test-and-test-and-set lock. A
// thread spins on a relaxed load until the lock looks free, then takes it with an acquire
// compare-and-swap; it increments a plain counter and releases with a release store.
// -DRELAXED_REL (ttaslock1) makes the release relaxed; -DRELAXED_ACQ (ttaslock2) the
// acquiring CAS: the counter accesses then race.
#include <weft_cuda.h>
#ifdef RELAXED_ACQ
#define LOCK_CAS weft_atom_cas_relaxed_gpu
#else
#define LOCK_CAS weft_atom_cas_acquire_gpu
#endif
#ifdef RELAXED_REL
#define UNLOCK_ST weft_st_relaxed_gpu
#else
#define UNLOCK_ST weft_st_release_gpu
#endif
__global__ void ttaslock(int *lock, int *counter) {
  bool done = false;
  while (!done) {
    if (weft_ld_relaxed_gpu(lock) == 0) {
      if (LOCK_CAS(lock, 0, 1) == 0) {
        int v = *counter;
        *counter = v + 1;
        UNLOCK_ST(lock, 0);
        done = true;
      }
    }
  }
}
