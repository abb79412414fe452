//xfail:ASSERT
//--local_size=64 --num_groups=1
// __global_ensures(!__write(A)) of a contract-only function must hold for every work-item: the odd ones wrote A before the even ones call it
void untouched(__local int *A) {
  __global_ensures(!__write(A));
}

__kernel void k(__local int *A) {
  int lid = get_local_id(0);
  if (lid % 2 == 1) {
    A[lid] = 1;
  }
  if (lid % 2 == 0) {
    untouched(A);
  }
}
