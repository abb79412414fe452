//--local_size=2 --num_groups=1 --buffer=out=2
// A barrier inside a branch only work-item 1 takes.
__kernel void k(__global int *out) {
  int t = get_local_id(0);
  if (t == 1) {
    barrier(CLK_GLOBAL_MEM_FENCE);
  }
  out[t] = t;
}
