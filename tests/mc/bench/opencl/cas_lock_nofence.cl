//--local_size=1 --num_groups=2
// CAS lock without fences (paper 000 §3, the cas-sl test), in OpenCL 2.0: the lock is taken
// with a RELAXED compare-exchange and released with a RELAXED exchange, no fences; each
// holder increments a plain counter. Nothing makes the critical sections happen-before each
// other: a data race on the counter. -DFIXED adds acquire/release device-scope fences
// (atomic_work_item_fence) after taking and before releasing the lock: fence
// synchronisation orders them.
__kernel void cas_lock(__global atomic_int *lock, __global int *counter) {
  bool done = false;
  while (!done) {
    int expected = 0;
    if (atomic_compare_exchange_strong_explicit(lock, &expected, 1, memory_order_relaxed,
                                                memory_order_relaxed, memory_scope_device)) {
#ifdef FIXED
      atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_acquire, memory_scope_device);
#endif
      int v = *counter;
      *counter = v + 1;
#ifdef FIXED
      atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, memory_scope_device);
#endif
      atomic_exchange_explicit(lock, 0, memory_order_relaxed, memory_scope_device);
      done = true;
    }
  }
}
