//pass
//--local_size=64 --num_groups=8
// the ghost array G holds A's contents from before the update (__array_snapshot); the
// barrier invariant relates the two, and after the barrier the assertion follows from it
#define lid get_local_id(0)

__kernel void k() {
  __local int A[64];
  __local int G[64];
  A[lid] = lid;
  __array_snapshot(G, A);
  A[lid] = A[lid] + 3;
  __barrier_invariant_1(A[lid] == G[lid] + 3, lid);
  barrier(CLK_LOCAL_MEM_FENCE);
  __assert(A[lid] == G[lid] + 3);
}
