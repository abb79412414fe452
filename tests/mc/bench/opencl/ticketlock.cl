//--local_size=2 --num_groups=4
// ticketlock in OpenCL 2.0 (paper 004 Table 1, grid (4,2)): tickets from a relaxed
// device-scope fetch-add, an acquire load of `serving`, a plain counter increment, a release
// store handing the lock on. -DRELAXED_REL (ticketlock1) / -DRELAXED_ACQ (ticketlock2) weaken
// the release / acquire to relaxed: the counter accesses then race.
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
__kernel void ticketlock(__global atomic_int *next, __global atomic_int *serving,
                         __global int *counter) {
  int my = atomic_fetch_add_explicit(next, 1, memory_order_relaxed, memory_scope_device);
  bool done = false;
  while (!done) {
    if (atomic_load_explicit(serving, ACQ, memory_scope_device) == my) {
      int v = *counter;
      *counter = v + 1;
      atomic_store_explicit(serving, my + 1, REL, memory_scope_device);
      done = true;
    }
  }
}
