//xfail:RACE
//--local_size=64 --num_groups=4
// the zeroing store and the other work-items' atomic_inc of `count` are in one barrier interval: a race between a plain store and an atomic (paper 002 §4.1)
kernel void k(local int *A) {
  local int count;
  if (get_local_id(0) == 0)
    count = 0;
  A[atomic_inc(&count)] = get_local_id(0);
}
