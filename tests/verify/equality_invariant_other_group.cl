//pass
//--local_size=64 --num_groups=4 --equality-abstraction
// each work-item adds 2 to its own A[lid] per iteration; the invariant over A holds in every group (each group has its own __local A)
__kernel void k() {
  __local int A[64];
  int lid = get_local_id(0);
  A[lid] = 0;
  for (int i = 0; __invariant(A[lid] == 2 * i), i < 50; i++) {
    A[lid] = A[lid] + 2;
  }
}
