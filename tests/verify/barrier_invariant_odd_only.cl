//xfail:ASSERT
//--local_size=64 --num_groups=1
// the invariant is stated by odd work-items only, yet names the even right neighbour: even
// work-items never state it and their cells hold 0, so the final assertion fails
#define N 64
#define lid get_local_id(0)

__kernel void k() {
  __local int A[N];
  A[lid] = (lid % 2) ? 5 : 0;
  if (lid % 2) {
    __barrier_invariant_1(A[lid] == 5, (lid + 1) % N);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid % 2) {
    __assert(A[(lid + 1) % N] == 5);
  }
}
