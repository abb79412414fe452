//--local_size=2 --num_groups=4
// caslock in OpenCL 2.0 (paper 004 Table 1, grid (4,2)): a global spin lock taken with a
// device-scope compare-exchange (acquire) and released with a device-scope store (release);
// each work-item increments a plain counter in the critical section. -DRELAXED_REL
// (caslock1) makes the release relaxed, -DRELAXED_ACQ (caslock2) the acquire: the counter
// accesses then race.
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
__kernel void caslock(__global atomic_int *lock, __global int *counter) {
  bool done = false;
  while (!done) {
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
