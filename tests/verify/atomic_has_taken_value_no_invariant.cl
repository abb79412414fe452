//pass
//--local_size=64 --num_groups=12
// the loop of atomic_has_taken_value_holds.cl without its invariant: race-free for the same reason (each work-item writes the bytes the counter gives it alone)
kernel void k(global unsigned *counter, global uchar *out, unsigned m) {
  for (unsigned i = 0; i < m; i++) {
    unsigned k = atomic_inc(counter);
    out[k] = (uchar)get_global_id(0);
  }
}
