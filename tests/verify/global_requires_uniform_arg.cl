//pass
//--local_size=64 --num_groups=1
// __global_requires(x == 16) holds for every work-item: the argument is the same constant everywhere, called or not
void sixteen(int x) {
  __global_requires(x == 16);
}

__kernel void k(__global int *A) {
  int lid = get_local_id(0);
  int n = 16;
  if (lid < 32) {
    sixteen(n);
  }
  A[lid] = lid;
}
