//xfail:RACE
//--local_size=[32] --num_groups=[2]
// Work-items g and g+1 (g even) write seq[c0 + g/2] with different values: a write-write race. The 64-bit parameter c0 is an integer added to the pointer, not an array.
__kernel void shift(__global char *seq, long c0)
{
  __requires(c0 >= 0 & c0 < 1000);
  long g = get_global_id(0);
  seq[c0 + g / 2] = (char)g;
}
