//pass
//--local_size=4 --num_groups=1
// An OpenCL kernel whose __assert fails for work-items 2 and 3: the emulator reports it
// once (exit 1). With -gline-tables-only clang puts a debug label between the call's
// operands (the PTX parser bug of issue 12).
__kernel void check(__global int *out) {
  int l = get_local_id(0);
  out[l] = l * 10;
  __assert(l < 2);
}
