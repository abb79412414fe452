//xfail:ASSERT
//--local_size=64 --num_groups=4
// hand-derived: slot drops the low bit (lid / 2), so work-items 0 and 1 of a group get the same value: the postcondition __distinct_int(return value) fails on return
int slot(int lid, int base) {
  __requires(__implies(__same_group, __distinct_int(lid)));
  __requires(__uniform_int(base));
  __ensures(__implies(__same_group, __distinct_int(__return_val_int())));
  int s = lid / 2;
  s = s + base;
  return s;
}
__kernel void k(__global int *out, int base) {
  __local int L[256];
  int i = slot((int)get_local_id(0), base);
  L[i & 255] = 1;
  out[get_global_id(0)] = (int)get_local_id(0);
}
