//xfail:INVARIANT
//--local_size=64 --num_groups=4
// the body sets i to 3 in every enabled work-item: two work-items below 100 that both enter the loop (ids 0 and 1) both hold i == 3 after one iteration, enabled, so __distinct_int(i) fails on the back edge
__kernel void k(__global int *out) {
  int i;
  for (i = get_global_id(0);
       __invariant(__implies(__uniform_bool(__enabled()), __distinct_int(i))), i < 100; i = 3) {
  }
  out[get_global_id(0)] = i;
}
