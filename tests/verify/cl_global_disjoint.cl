//pass
//--local_size=64 --num_groups=4
// global id per work-item
__kernel void k(__global int *A) { A[get_global_id(0)] = 1; }
