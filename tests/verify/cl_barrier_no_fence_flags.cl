//xfail:RACE
//--local_size=64 --num_groups=4
// barrier(0) names no address space, so it orders neither the local nor the global accesses: the neighbour's local read races with the write before it
kernel void k(global int *out) {
  local int t[64];
  t[get_local_id(0)] = (int)get_global_id(0);
  barrier(0);
  out[get_global_id(0)] = t[(get_local_id(0) + 1) % 64];
}
