//xfail:INVARIANT
//--local_size=64 --num_groups=8
// before the loop work-item g writes A[g + n] (n = 512): on entry the logged write offset is 4*(g + n), not 4*g, so the invariant fails there; every write of the loop is at A[g] and keeps it (race-free: the elements g and g + n belong to g alone)
kernel void k(global int *A, global const int *B, unsigned m) {
  unsigned n = get_global_size(0);
  unsigned g = get_global_id(0);
  A[g + n] = 0;
  for (unsigned r = 0; r < m; r++) {
    A[g] = B[r];
  }
  __function_wide_invariant(__write_implies(A, __write_offset_bytes(A) / sizeof(int) == g));
}
