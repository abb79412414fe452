//xfail:RACE
//--local_size=64 --num_groups=1 --adversarial-abstraction
// each work-item copies B[j] into A[i]: under the adversarial abstraction the two reads may differ, so the writes race
__kernel void k(__local int *A, __local int *B, int i, int j) {
  A[i] = B[j];
}
