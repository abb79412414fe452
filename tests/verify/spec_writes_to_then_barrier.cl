//pass
//--local_size=64 --num_groups=2
// hand-derived: as spec_writes_to_then_read.cl with a work-group barrier between the specification function's frame writes (each work-item at its own local index) and the neighbour's read: no race
void __spec_fill(__local int *p) {
  __ensures(__write_implies(p, __write_offset_bytes(p) / sizeof(int) == get_local_id(0)));
  __writes_to(p);
}
__kernel void k(__global int *out) {
  __local int L[64];
  __spec_fill(L);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = L[(get_local_id(0) + 1) & 63];
}
