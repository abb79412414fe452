//xfail:RACE
//--local_size=65 --num_groups=1
// with 65 work-items lid/64 is 0 for 64 of them and 1 for the last: two different values at A[i], a write-write race
__kernel void k(__local int *A, int i) {
  A[i] = get_local_id(0) / 64;
}
