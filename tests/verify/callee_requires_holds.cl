//pass
//--local_size=64 --num_groups=2
// a called function's __requires holds at the call: get_local_id(0) + 1 is in 1..64
int scale(int x) {
  __requires(x > 0);
  return x * 2;
}

__kernel void k(__global int *A) {
  A[get_global_id(0)] = scale(get_local_id(0) + 1);
}
