//xfail:INVARIANT
//--local_size=64 --num_groups=12
// the invariant also says that the logged element is below 100, which the counter's values do not keep (it returns 100 after 100 increments): not maintained; the first conjunct alone keeps the loop race-free, so only the invariant fails
kernel void k(global unsigned *counter, global uchar *out, unsigned m) {
  for (unsigned i = 0;
       __global_invariant(__write_implies(out, __atomic_has_taken_value(counter, 0, __write_offset_bytes(out)) & (__write_offset_bytes(out) < 100))),
       i < m; i++) {
    unsigned k = atomic_inc(counter);
    out[k] = (uchar)get_global_id(0);
  }
}
