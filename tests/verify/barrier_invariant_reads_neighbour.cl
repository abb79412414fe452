//xfail:RACE
//--local_size=64 --num_groups=1
// the invariant reads the right neighbour's cell, which the neighbour writes in the same
// barrier interval: an unsynchronised read (GPUVerify's barrier access check)
#define N 64
#define lid get_local_id(0)

__kernel void k() {
  __local int A[N];
  A[lid] = lid;
  __barrier_invariant_1((A[(lid + 1) % N] & 0) == 0, lid);
  barrier(CLK_LOCAL_MEM_FENCE);
}
