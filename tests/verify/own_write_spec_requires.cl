//pass
//--local_size=64 --num_groups=4
// the specification function's precondition, checked at the call, reads the element the caller has just written itself (no other work-item writes it), so it holds (the fence only keeps clang from forwarding the store)
void __spec_check(__global int *p) {
  __requires(p[get_global_id(0)] == 2 * get_global_id(0));
}

__kernel void k(__global int *A) {
  A[get_global_id(0)] = 2 * get_global_id(0);
  mem_fence(CLK_GLOBAL_MEM_FENCE);
  __spec_check(A);
}
