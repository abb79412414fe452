//--blockDim=2 --gridDim=4
// ticketlock (paper 004 Table 1; Dartagnan's GPU benchmarks): a ticket lock. A thread takes a
// ticket with a relaxed device-scope fetch-and-add, waits until `serving` equals its ticket
// (acquire load), increments a plain counter and hands the lock on with a release store.
// -DRELAXED_REL (ticketlock1) makes the release relaxed; -DRELAXED_ACQ (ticketlock2) the
// acquire: the counter accesses of consecutive holders then race.
#include <weft_cuda.h>
#ifdef RELAXED_ACQ
#define LOCK_LD weft_ld_relaxed_gpu
#else
#define LOCK_LD weft_ld_acquire_gpu
#endif
#ifdef RELAXED_REL
#define UNLOCK_ST weft_st_relaxed_gpu
#else
#define UNLOCK_ST weft_st_release_gpu
#endif
__global__ void ticketlock(int *next, int *serving, int *counter) {
  int my = weft_atom_add_relaxed_gpu(next, 1);
  bool done = false;
  while (!done) {
    if (LOCK_LD(serving) == my) {
      int v = *counter;
      *counter = v + 1;
      UNLOCK_ST(serving, my + 1);
      done = true;
    }
  }
}
