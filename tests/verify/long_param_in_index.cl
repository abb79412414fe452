//pass
//--local_size=[32] --num_groups=[2]
// Each work-item writes its own byte seq[c0 + g] (g its global id): distinct for distinct g. The 64-bit parameter c0 is an integer added to the pointer (clang marks OpenCL pointer parameters `.ptr` in PTX, not c0), not an array.
__kernel void shift(__global char *seq, long c0)
{
  __requires(c0 >= 0 & c0 < 1000);
  long g = get_global_id(0);
  seq[c0 + g] = (char)g;
}
