//xfail:RACE
//--local_size=64 --num_groups=2
// hand-derived: the specification function writes L at the work-item's own local index; the kernel then reads its neighbour's element with no barrier in between: work-item 1's frame write of L[1] races with work-item 0's read of it
void __spec_fill(__local int *p) {
  __ensures(__write_implies(p, __write_offset_bytes(p) / sizeof(int) == get_local_id(0)));
  __writes_to(p);
}
__kernel void k(__global int *out) {
  __local int L[64];
  __spec_fill(L);
  out[get_global_id(0)] = L[(get_local_id(0) + 1) & 63];
}
