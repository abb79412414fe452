//xfail:UNINITIALISED
//--local_size=64 --num_groups=4
// `x` is read before it is assigned on the path where `n` is 0: its value is undefined (GPUVerify's undef_tests), and clang may assume anything of it
kernel void k(global int *out, int n) {
  int x;
  if (n > 0)
    x = n;
  out[get_global_id(0)] = x;
}
