//pass
//--local_size=64 --num_groups=8
// work-item g (of n = 512) writes only A[g] and reads A[g] and A[g + n]: every logged write offset is 4*g and every read offset is 4*g or 4*(g + n), both g modulo n, which is what the two function-wide invariants say at each loop head; with them the logs of a cut loop cannot name another work-item's element
kernel void k(global int *A, unsigned m) {
  unsigned n = get_global_size(0);
  unsigned g = get_global_id(0);
  for (unsigned r = 0; r < m; r++) {
    A[g] = A[g] + A[g + n];
  }
  for (unsigned r = 0; r < m; r++) {
    A[g] = A[g + n] - 1;
  }
  __function_wide_invariant(__write_implies(A, (__write_offset_bytes(A) / sizeof(int)) % n == g));
  __function_wide_invariant(__read_implies(A, (__read_offset_bytes(A) / sizeof(int)) % n == g));
}
