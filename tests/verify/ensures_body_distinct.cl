//not_checked
//--local_size=64 --num_groups=4
// hand-derived: a function of the local id plus a group-uniform offset returns values distinct between two work-items of one group, as its postcondition says; the kernel's writes at that index then do not race within the group, and inter-group pairs are excluded by writing to the group's own local array; no error is possible, but weft checks the postcondition only at the kernel's own calls, not for every argument the function allows (GPUVerify's modular check), so it must say "not checked" (issue 27), never "verified"
int slot(int lid, int base) {
  __requires(__implies(__same_group, __distinct_int(lid)));
  __requires(__uniform_int(base));
  __ensures(__implies(__same_group, __distinct_int(__return_val_int())));
  int s = lid;
  s = s + base;
  return s;
}
__kernel void k(__global int *out, int base) {
  __local int L[256];
  int i = slot((int)get_local_id(0), base);
  L[i & 255] = 1;
  out[get_global_id(0)] = (int)get_local_id(0);
}
