//pass
//--local_size=64 --num_groups=2
// __spec_load reads some element of p (__reads_from), and the work-items only read A: reads do not race
void __spec_load(__global int *p) {
  __reads_from(p);
}

__kernel void k(__global int *A, __global int *B) {
  __spec_load(A);
  B[get_global_id(0)] = A[get_global_id(0)];
}
