//pass
//--local_size=64 --num_groups=4
// hand-derived: bytes 1 and 2 of w.y (w = v + v) read through a char pointer equal those of v.y + v.y, the same value: the assertion holds for every input (clang extracts the bytes with bfe; before, an uninterpreted bfe made it fail)
static __attribute__((always_inline)) bool same_bytes(float *p, float *q) {
  char *a = (char *)p, *b = (char *)q;
  return a[1] == b[1] && a[2] == b[2];
}
__kernel void k(__global float4 *p) {
  float4 v = p[get_global_id(0)];
  float4 w = v + v;
  float y = v.y + v.y;
  __assert(same_bytes((float *)(&w) + 1, &y));
  p[get_global_id(0)] = w;
}
