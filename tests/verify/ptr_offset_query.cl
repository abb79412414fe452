//pass
//--local_size=32 --num_groups=2
// __ptr_offset_bytes is the byte offset in the array: 4 for a + 1, 8 once more advanced
void helper(__global int *p) {
  __requires(__ptr_offset_bytes(p) == 4);
  __global int *q = p + 1;
  __assert(__ptr_offset_bytes(q) == 8);
  q[get_global_id(0)] = 3;
}
__kernel void k(__global int *a) {
  helper(a + 1);
}
