//pass
//--local_size=64 --num_groups=2
// paper 002 Fig. 2a verbatim (OpenCL 1.2 atomic_inc)
__kernel void histo(__global const int *A, __global int *B) {
  int t = A[get_global_id(0)];
  atomic_inc(&B[t]);
}
