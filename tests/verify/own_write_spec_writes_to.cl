//xfail:ASSERT
//--local_size=64 --num_groups=4
// the specification function writes its frame p (__writes_to) and promises nothing about the values, so after the call A[gid] may hold anything (the fence only keeps clang from forwarding the store across the call, which it would since __writes_to compiles to nothing)
void __spec_w(__global int *p) {
  __writes_to(p);
}

__kernel void k(__global int *A) {
  A[get_global_id(0)] = get_global_id(0);
  __spec_w(A);
  mem_fence(CLK_GLOBAL_MEM_FENCE);
  __assert(A[get_global_id(0)] == get_global_id(0));
}
