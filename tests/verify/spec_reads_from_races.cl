//xfail:RACE
//--local_size=64 --num_groups=2
// __spec_load reads some element of p (__reads_from): it may be the one another work-item writes
void __spec_load(__global int *p) {
  __reads_from(p);
}

__kernel void k(__global int *A) {
  __spec_load(A);
  A[get_global_id(0)] = 1;
}
