//xfail:RACE
//--local_size=64 --num_groups=4
// barrier(CLK_LOCAL_MEM_FENCE) orders local memory only (OpenCL 1.2 §6.12.8): the global write of work-item i and the later global write of work-item i-1 to the same element are unordered
kernel void k(global int *p) {
  p[get_global_id(0)] = 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) > 0)
    p[get_global_id(0) - 1] = 2;
}
