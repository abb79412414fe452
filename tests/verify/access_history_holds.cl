//pass
//--local_size=32 --num_groups=4
// out is only written and in only read since the start: __read(out) and __write(in) are false
__kernel void k(__global float *out, __global const float *in) {
  size_t g = get_global_id(0);
  out[g] = in[g] * 2.0f;
  __assert(!__read(out));
  __assert(!__write(in));
  __assert(__implies(__write(out), __write_offset_bytes(out) == g * sizeof(float)));
}
