//xfail:RACE
//--local_size=64 --num_groups=4
// hand-derived: work-items 2j and 2j+1 both write b[j] (index get_global_id(0) / 2) with values from different elements: a write-write race on b
__kernel void k(__global float *b) {
  int i = get_global_id(0);
  b[i / 2] = native_sin(b[i]);
}
