//xfail:BARRIER_DIVERGENCE
//--local_size=64 --num_groups=1
// half the work-group reaches the barrier
__kernel void k(__global int *A) {
  if (get_local_id(0) < 32) barrier(CLK_GLOBAL_MEM_FENCE);
  A[get_local_id(0)] = 1;
}
