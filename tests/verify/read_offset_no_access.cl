//xfail:ASSERT
//--local_size=64 --num_groups=4
// Neither p nor q is read, so GPUVerify's __read_offset(p) and __read_offset(q) are
// arbitrary values (an access that has not occurred has no offset): they may differ and the
// assertion may fail (GPUVerify's annotation_tests/fail_read_offset_global, smaller launch).
__kernel void foo(__global int *p, __global int *q) {
  __assert(__read_offset(p) == __read_offset(q));
}
