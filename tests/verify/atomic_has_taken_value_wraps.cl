//xfail:RACE
//--local_size=64 --num_groups=8
// the element written is the counter value modulo 64, so the 65th increment writes the byte the first one did: two work-items write out[0] with different values (a real race); the invariant, which speaks of the unreduced value, is not maintained either
kernel void k(global unsigned *counter, global uchar *out) {
  while (__global_invariant(__write_implies(out, __atomic_has_taken_value(counter, 0, __write_offset_bytes(out)))),
         true) {
    unsigned k = atomic_inc(counter);
    out[k & 63] = (uchar)get_global_id(0);
    if (k > get_global_id(0)) {
      break;
    }
  }
}
