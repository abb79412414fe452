//--local_size=1 --num_groups=2 --buffer=lock=1 --buffer=count=1
// caslock_cl.cl with a relaxed acquire (paper 004 caslock1): RELAXED_ACQ is defined here.
#define RELAXED_ACQ
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
