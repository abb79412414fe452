//xfail:RACE
//--local_size=64 --num_groups=8
// hand-derived: work-item i writes a[i] and reads a[i + 1], which work-item i + 1 writes, with no barrier between (a read-write race); the math around the read does not hide it
__kernel void k(__global float4 *a, __global float4 *b) {
  int i = get_global_id(0);
  a[i] = cos(a[i + 1]) * pow(b[i], b[i]) + fmod(b[i], (float4)(3.0f));
}
