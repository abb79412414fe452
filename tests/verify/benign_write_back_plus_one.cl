//xfail:RACE
//--local_size=64 --num_groups=1 --equality-abstraction
// writing back the value read plus one changes A[0]: a read-write race
__kernel void k(__local int *A) {
  int v = A[0];
  A[0] = v + 1;
}
