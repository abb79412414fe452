//xfail:RACE
//--local_size=64 --num_groups=16
// hand-derived: the counter's atomic_inc is fine, but work-item i clears input[i + 1], which work-item i + 1 reads with no barrier between (a read-write race)
#pragma OPENCL EXTENSION cl_ext_atomic_counters_32 : enable
__kernel void count_value(__global uint *input, uint value, counter32_t counter) {
  size_t i = get_global_id(0);
  if (input[i] == value)
    atomic_inc(counter);
  input[i + 1] = 0;
}
