//xfail:ASSERT
//--local_size=64 --num_groups=4
// hand-derived: the bytes of w.y (= v.y + v.y) are compared with those of v.z + v.z; p is arbitrary, so v.y and v.z may differ and the assertion can fail
static __attribute__((always_inline)) bool same_bytes(float *p, float *q) {
  char *a = (char *)p, *b = (char *)q;
  return a[1] == b[1] && a[2] == b[2];
}
__kernel void k(__global float4 *p) {
  float4 v = p[get_global_id(0)];
  float4 w = v + v;
  float z = v.z + v.z;
  __assert(same_bytes((float *)(&w) + 1, &z));
  p[get_global_id(0)] = w;
}
