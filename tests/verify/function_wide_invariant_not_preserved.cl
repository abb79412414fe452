//xfail:INVARIANT
//--local_size=64 --num_groups=8
// work-item g writes A[g + 1] in the loop (race-free: one element per work-item, and the reads of A[g + 1 + n] are beyond every write); no write has happened on entry, so the invariant holds there, but after one iteration the logged write offset is 4*(g + 1), not g modulo n = 512: not maintained
kernel void k(global int *A, unsigned m) {
  unsigned n = get_global_size(0);
  unsigned g = get_global_id(0);
  for (unsigned r = 0; r < m; r++) {
    A[g + 1] = A[g + 1 + n] + 1;
  }
  __function_wide_invariant(__write_implies(A, (__write_offset_bytes(A) / sizeof(int)) % n == g));
}
