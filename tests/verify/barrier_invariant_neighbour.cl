//pass
//--local_size=64 --num_groups=1
// every work-item writes 2*lid to its own cell; the barrier invariant, instantiated for the
// work-item and its right neighbour, gives the neighbour's cell after the barrier
#define N 64
#define lid get_local_id(0)

__kernel void k(__global int *out) {
  __local int A[N];
  A[lid] = 2 * lid;
  __barrier_invariant_2(A[lid] == 2 * lid, lid, (lid + 1) % N);
  barrier(CLK_LOCAL_MEM_FENCE);
  int v = A[(lid + 1) % N];
  __assert(v == 2 * ((lid + 1) % N));
  out[lid] = v;
}
