//pass
//--local_size=64 --num_groups=4
// i starts at the global id (distinct per work-item) and every enabled work-item adds 1: while both are enabled i differs; a work-item that has left the loop has __enabled() false, so the implication is vacuous for it
__kernel void k(__global int *out) {
  int i;
  for (i = get_global_id(0);
       __invariant(__implies(__uniform_bool(__enabled()), __distinct_int(i))), i < 100; i++) {
  }
  out[get_global_id(0)] = i;
}
