//pass
//--local_size=64 --num_groups=1
// paper 002 Fig. 1b in OpenCL
__kernel void add(__local int *A) {
  int temp = A[(get_local_id(0) + 1) % 64];
  barrier(CLK_LOCAL_MEM_FENCE);
  A[get_local_id(0)] = A[get_local_id(0)] + temp;
}
