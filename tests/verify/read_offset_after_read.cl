//pass
//--local_size=64 --num_groups=4
// Work-item 0 reads q[5] and p[3] (byte offsets 20 and 12 of int arrays): once both reads
// have occurred their logged offsets are known, so the assertion holds for every work-item.
__kernel void foo(__global int *p, __global int *q, __global int *r) {
  if (get_global_id(0) == 0) {
    r[0] = q[5] + p[3];
    __assert(__implies(__read(p) & __read(q), __read_offset(q) == __read_offset(p) + 8));
  }
}
