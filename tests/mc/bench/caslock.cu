//--blockDim=2 --gridDim=4
// caslock (paper 004 Table 1; Dartagnan's GPU benchmarks): a global spin lock taken with a
// compare-and-swap and released with a store. Each thread increments a plain counter inside
// the critical section. -DRELAXED_REL (variant caslock1) weakens the release to relaxed;
// -DRELAXED_ACQ (variant caslock2) weakens the acquire to relaxed: the counter accesses are
// then no longer ordered by happens-before and race.
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
__global__ void caslock(int *lock, int *counter) {
  // Acquire, critical section and release in one loop body, so that threads of one warp
  // make progress under lock-step execution too.
  bool done = false;
  while (!done) {
    if (LOCK_CAS(lock, 0, 1) == 0) {
      int v = *counter;
      *counter = v + 1;
      UNLOCK_ST(lock, 0);
      done = true;
    }
  }
}
