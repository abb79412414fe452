//--local_size=1 --num_groups=2 --buffer=lock=1 --buffer=count=1
// OpenCL 2.0 CAS lock across work-groups: acquire on the successful exchange, release on
// unlock, device scope. -DRELAXED_ACQ weakens the acquire to relaxed (paper 004's caslock1).
#ifdef RELAXED_ACQ
#define ACQ memory_order_relaxed
#else
#define ACQ memory_order_acquire
#endif
__kernel void inc(__global atomic_int *lock, __global int *count) {
  int expected = 0;
  while (!atomic_compare_exchange_strong_explicit(lock, &expected, 1, ACQ,
                                                  memory_order_relaxed, memory_scope_device)) {
    expected = 0;
  }
  count[0] = count[0] + 1;
  atomic_store_explicit(lock, 0, memory_order_release, memory_scope_device);
}
