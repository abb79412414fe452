//--local_size=32 --num_groups=1
// barrier() (a macro over a function of weft's OpenCL shim header) on its own line inside a
// divergent branch, after other statements: the finding names the barrier's line.
__kernel void k(__global int *out) {
  __local int s[32];
  size_t l = get_local_id(0);
  s[l] = (int)l;
  if (l < 8) {
    out[l] = s[l] + 1;
    barrier(CLK_LOCAL_MEM_FENCE); // @B
  }
  out[l] = s[31 - l];
}
