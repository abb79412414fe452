//--local_size=2 --num_groups=3
// ttaslock in OpenCL 2.0 (paper 004 Table 1, grid (3,2)): spin on a relaxed load, take the
// lock with an acquire compare-exchange, increment a plain counter, release with a release
// store. -DRELAXED_REL (ttaslock1) / -DRELAXED_ACQ (ttaslock2) weaken the release / acquire
// to relaxed: the counter accesses then race.
#ifdef RELAXED_ACQ
#define ACQ memory_order_relaxed
#else
#define ACQ memory_order_acquire
#endif
#ifdef RELAXED_REL
#define REL memory_order_relaxed
#else
#define REL memory_order_release
#endif
__kernel void ttaslock(__global atomic_int *lock, __global int *counter) {
  bool done = false;
  while (!done) {
    if (atomic_load_explicit(lock, memory_order_relaxed, memory_scope_device) == 0) {
      int expected = 0;
      if (atomic_compare_exchange_strong_explicit(lock, &expected, 1, ACQ, memory_order_relaxed,
                                                  memory_scope_device)) {
        int v = *counter;
        *counter = v + 1;
        atomic_store_explicit(lock, 0, REL, memory_scope_device);
        done = true;
      }
    }
  }
}
