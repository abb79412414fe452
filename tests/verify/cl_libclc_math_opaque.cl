//pass
//--local_size=64 --num_groups=8
// hand-derived: work-item i reads a[i], b[i] and writes only a[i] (global id, 512 distinct); cos, sin, tan, pow and fmod (libclc's bit-level code took the verifier 3-25 s each) and exp only compute the value written
__kernel void k(__global float *a, __global float *b) {
  int i = get_global_id(0);
  float x = a[i], y = b[i];
  a[i] = cos(x) + sin(y) + tan(x) + pow(x, y) + fmod(x, y) + exp(y);
}
