//pass
//--local_size=64 --num_groups=12
// every iteration writes out[k] for a k the repetition-free counter returned (atomic_inc: distinct values, paper 002 §4.2), so the logged write offset is always a value the counter has taken, as the invariant says; a value another work-item receives later is fresh, never the logged one: no race (the bytes written differ between work-items, so no benign tolerance); `out` holds bytes, so the logged byte offset is the counter value itself
kernel void k(global unsigned *counter, global uchar *out, unsigned m) {
  for (unsigned i = 0;
       __global_invariant(__write_implies(out, __atomic_has_taken_value(counter, 0, __write_offset_bytes(out)))),
       i < m; i++) {
    unsigned k = atomic_inc(counter);
    out[k] = (uchar)get_global_id(0);
  }
}
