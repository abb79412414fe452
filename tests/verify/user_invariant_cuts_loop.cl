//pass
//--local_size=64 --num_groups=8
// a loop with a user invariant is cut with it (not unrolled): the invariant on the write log
// is what proves each work-item writes only its own word of the local array
__kernel void k(__global int *out, int n) {
  __local int s[64];
  for (int i = 0;
       __invariant(__write_implies(s, __write_offset_bytes(s) == get_local_id(0) * sizeof(int))),
       __invariant(__no_read(s)), i < 16; i++)
    s[get_local_id(0)] = i;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = s[get_local_id(0)];
}
