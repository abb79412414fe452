//xfail:ASSERT
//--local_size=64 --num_groups=2
// the barrier invariant claims lid + 1 where every work-item wrote lid: false for every
// work-item at the barrier, so the check where it is written fails
#define lid get_local_id(0)

__kernel void k() {
  __local int A[64];
  A[lid] = lid;
  __barrier_invariant_1(A[lid] == lid + 1, lid);
  barrier(CLK_LOCAL_MEM_FENCE);
}
