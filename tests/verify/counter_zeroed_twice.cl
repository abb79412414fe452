//xfail:RACE
//--local_size=64 --num_groups=1
// `count` is zeroed again between two rounds, so the second round returns the first round's values again: work-item x writes A[v1] while work-item y writes A[v2] with v2 == v1 in the last barrier interval (a write-write race; weft sees it because a counter's used values restart at each barrier)
kernel void k(local int *A) {
  local int count;
  if (get_local_id(0) == 0)
    count = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  int v1 = atomic_inc(&count);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0)
    count = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  int v2 = atomic_inc(&count);
  A[v1] = 1;
  A[v2] = 2;
}
