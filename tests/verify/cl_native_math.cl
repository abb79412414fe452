//pass
//--local_size=64 --num_groups=4
// hand-derived: work-item i reads and writes only a[i] (global id, 256 distinct); native_cos (which crashed clang's NVPTX back-end through libclc: "Cannot select: fcos") only computes the value written
__kernel void k(__global float *a) {
  int i = get_global_id(0);
  a[i] = native_cos(a[i]);
}
