//pass
//--local_size=64 --num_groups=16
// hand-derived: AMD's counter32_t (cl_ext_atomic_counters_32) is only updated by atomic_inc, which never races; work-item i reads only input[i] (global id, 1024 distinct)
#pragma OPENCL EXTENSION cl_ext_atomic_counters_32 : enable
__kernel void count_value(__global uint *input, uint value, counter32_t counter) {
  size_t i = get_global_id(0);
  if (input[i] == value)
    atomic_inc(counter);
}
