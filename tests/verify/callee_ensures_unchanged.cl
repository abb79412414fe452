//pass
//--local_size=64 --num_groups=2
// a function whose body is its contract changes nothing: its postcondition x == __old_int(x) holds on return
void keep(int x) {
  __ensures(x == __old_int(x));
}

__kernel void k(__global int *A) {
  keep(get_local_id(0));
  A[get_global_id(0)] = 1;
}
