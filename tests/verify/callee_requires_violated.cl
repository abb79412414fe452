//xfail:ASSERT
//--local_size=64 --num_groups=2
// a called function's __requires is checked at the call: work-item 0 passes 0, which is not positive
int scale(int x) {
  __requires(x > 0);
  return x * 2;
}

__kernel void k(__global int *A) {
  A[get_global_id(0)] = scale(get_local_id(0));
}
