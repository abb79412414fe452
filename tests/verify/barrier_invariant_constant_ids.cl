//pass
//--local_size=128 --num_groups=4
// instantiated at work-items 0 and 1 and at the work-item itself (the variadic form): after
// the barrier every work-item knows B[0] = 0, B[1] = 10 and its own B[lid] = 10 * lid
#define lid get_local_id(0)

__kernel void k(__global int *out) {
  __local int B[128];
  B[lid] = 10 * lid;
  __barrier_invariant(B[lid] == 10 * lid, 0, 1, lid);
  barrier(CLK_LOCAL_MEM_FENCE);
  __assert(B[1] - B[0] == 10);
  __assert(__implies(lid > 1, B[lid] > B[1]));
  out[get_global_id(0)] = B[lid];
}
