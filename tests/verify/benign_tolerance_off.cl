//xfail:RACE
//--local_size=64 --num_groups=1 --no-benign-tolerance
// GPUVerify's --no-benign-tolerance: the same-value write-write race on A[0] is reported
__kernel void k(__local int *A) {
  A[0] = 0;
}
