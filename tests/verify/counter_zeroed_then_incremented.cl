//pass
//--local_size=64 --num_groups=4
// paper 002 §4.3 relaxed for block-shared counters: one work-item zeroes `count`, a barrier, then every work-item takes a distinct index with atomic_inc (no plain access of `count` in that interval, so the returned values are distinct within the group); `A` is local, one copy per group
kernel void k(local int *A) {
  local int count;
  if (get_local_id(0) == 0)
    count = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  A[atomic_inc(&count)] = get_local_id(0);
}
