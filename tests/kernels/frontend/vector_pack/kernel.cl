//pass
//--local_size=2 --num_groups=1
// Byte-wise comparison of float4 lanes (clang emits `mov.b32 {.., %rs}, %r` unpacks).
__kernel void bytes(__global float4 *p, __global int *same) {
  size_t g = get_global_id(0);
  float4 v = p[g];
  float4 w = v + v;
  float y2 = v.y + v.y;
  uchar *a = (uchar *)&w + 4;
  uchar *b = (uchar *)&y2;
  same[g] = a[0] == b[0] && a[1] == b[1] && a[2] == b[2] && a[3] == b[3];
  same[g + 2] = a[1] + 256 * a[3];
  p[g] = w;
}
