//pass
//--local_size=32 --num_groups=2 --only-requires
// with --only-requires the false loop invariant is ignored; the precondition makes j zero
__kernel void k(__global int *A, int j) {
  __requires(j == 0);
  for (int i = 0; __invariant(i < 0), i < 4; i++)
    A[get_global_id(0) + j] = i;
}
