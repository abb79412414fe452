//pass
//--local_size=64 --num_groups=64
// the same constant written in a loop cut with invariants (Houdini keeps "the logged write's value is 42")
__kernel void k(__local int *A, int start, int end) {
  for (unsigned i = start; i < end; ++i) {
    A[0] = 42;
  }
}
