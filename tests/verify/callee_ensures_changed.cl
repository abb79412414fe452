//xfail:ASSERT
//--local_size=64 --num_groups=2
// a function whose body is its contract changes nothing, so its postcondition x == __old_int(x) + 1 fails on return
void bump(int x) {
  __ensures(x == __old_int(x) + 1);
}

__kernel void k(__global int *A) {
  bump(get_local_id(0));
  A[get_global_id(0)] = 1;
}
