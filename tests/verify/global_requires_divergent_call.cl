//xfail:ASSERT
//--local_size=64 --num_groups=1
// __global_requires(x == 7) must hold for every work-item, calling or not: the odd work-items skip the call, and their x (the private z) is still 3
void seven(int x) {
  __global_requires(x == 7);
}

__kernel void k(__global int *A) {
  int lid = get_local_id(0);
  volatile int z = 3;
  if (lid % 2 == 0) {
    z = 7;
    seven(z);
  }
  A[lid] = z;
}
