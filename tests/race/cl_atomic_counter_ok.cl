//--local_size=64 --num_groups=4
__kernel void k(__global int *count) { atomic_inc(count); }
