//pass
//--local_size=64 --num_groups=8
// each iteration writes out[k] for a value k the counter returned, and a work-item may leave the loop by the break; one that left keeps its logged write, which the invariant (a plain invariant of the loop, not one guarded by the loop predicate, as GPUVerify's) still describes, so the values the other work-item receives later never meet it: race-free
kernel void k(global unsigned *counter, global uchar *out) {
  while (__global_invariant(__write_implies(out, __atomic_has_taken_value(counter, 0, __write_offset_bytes(out)))),
         true) {
    unsigned k = atomic_inc(counter);
    out[k] = (uchar)get_global_id(0);
    if (k > get_global_id(0)) {
      break;
    }
  }
}
