//not_checked
//--local_size=64 --num_groups=2
// a function whose body is its contract changes nothing: its postcondition x == __old_int(x) holds on return; no error is possible, but weft checks the postcondition only at the kernel's own calls, not for every argument the function allows (GPUVerify's modular check), so it must say "not checked" (issue 27), never "verified"
void keep(int x) {
  __ensures(x == __old_int(x));
}

__kernel void k(__global int *A) {
  keep(get_local_id(0));
  A[get_global_id(0)] = 1;
}
