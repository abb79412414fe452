//pass
//--local_size=64 --num_groups=64
// GPUVerify's benign-race tolerance (its default): every work-item writes the same value (lid/64 is 0) to A[i]: not a race
__kernel void k(__local int *A, int i) {
  A[i] = get_local_id(0) / 64;
}
