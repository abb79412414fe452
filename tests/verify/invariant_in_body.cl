//xfail:INVARIANT
//--local_size=16 --num_groups=7
// GPUVerify rejects a loop invariant written in the loop body after other statements (not at the loop head)
__kernel void k(__local float *p) {
  for (unsigned i = 0; i < 100; i++) {
    p[16 * i + get_local_id(0)] = get_local_id(0);
    __invariant(__write_implies(p, ((__write_offset_bytes(p) / sizeof(float)) % 16) == get_local_id(0)));
  }
}
