//not_checked
//--local_size=64 --num_groups=1
// __global_ensures(!__write(A)) holds for every work-item: the work-items only read A; no error is possible, but weft checks the postcondition only at the kernel's own calls, not for every argument the function allows (GPUVerify's modular check), so it must say "not checked" (issue 27), never "verified"
void untouched(__local int *A) {
  __global_ensures(!__write(A));
}

__kernel void k(__local int *A, __global int *B) {
  int lid = get_local_id(0);
  B[get_global_id(0)] = A[lid];
  if (lid % 2 == 0) {
    untouched(A);
  }
}
