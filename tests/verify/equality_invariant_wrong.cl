//xfail:INVARIANT
//--local_size=64 --num_groups=1 --equality-abstraction
// A[lid] grows by 2 per iteration, so the invariant A[lid] == i is not preserved
__kernel void k() {
  __local int A[64];
  int lid = get_local_id(0);
  A[lid] = 0;
  for (int i = 0; __invariant(A[lid] == i), i < 50; i++) {
    A[lid] = A[lid] + 2;
  }
}
