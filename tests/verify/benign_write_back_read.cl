//pass
//--local_size=64 --num_groups=1 --equality-abstraction
// each work-item writes back the value it read from A[0]: the read-write race is benign (the write changes nothing)
__kernel void k(__local int *A) {
  int v = A[0];
  A[0] = v;
}
