//pass
//--local_size=64 --num_groups=64 --equality-abstraction
// with the equality abstraction both work-items read the same B[j] (nobody writes B), so they write the same value to A[i]
__kernel void k(__local int *A, __local int *B, int i, int j) {
  A[i] = B[j];
}
