//pass
//--local_size=64 --num_groups=8
// the function-wide invariant stands in fill(), so it is an invariant of fill()'s loop only (where work-item g writes A[g]); the kernel's own loop, after the barrier, writes A[g + n] (n = 512), where the invariant would fail; race-free: before the barrier A[0, n), after it A[n, 2n), one element per work-item
void fill(global int *A, global const int *B, unsigned g, unsigned m) {
  for (unsigned r = 0; r < m; r++) {
    A[g] = B[r];
  }
  __function_wide_invariant(__write_implies(A, __write_offset_bytes(A) / sizeof(int) == g));
}

kernel void k(global int *A, global const int *B, unsigned m) {
  unsigned n = get_global_size(0);
  unsigned g = get_global_id(0);
  fill(A, B, g, m);
  barrier(CLK_GLOBAL_MEM_FENCE);
  for (unsigned r = 0; r < m; r++) {
    A[g + n] = B[r];
  }
}
