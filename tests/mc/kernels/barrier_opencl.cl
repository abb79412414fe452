//--local_size=2 --num_groups=1 --buffer=out=2
// OpenCL local-memory exchange with a work-group barrier between the write and the read.
__kernel void swap(__global int *out) {
  __local int s[2];
  int t = get_local_id(0);
  s[t] = t + 5;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[t] = s[1 - t];
}
