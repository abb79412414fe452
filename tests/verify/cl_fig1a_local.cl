//xfail:RACE
//--local_size=64 --num_groups=1
// paper 002 Fig. 1a in OpenCL, local memory
__kernel void add(__local int *A) {
  A[get_local_id(0)] = A[get_local_id(0)] + A[(get_local_id(0) + 1) % 64];
}
