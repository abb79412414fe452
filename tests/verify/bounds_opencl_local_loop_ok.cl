//pass
//--local_size=32 --num_groups=2 --check-array-bounds
// the loop runs i = lid, lid+32, ... while i < 128: every index inside the 128-int local array
__kernel void k(__global int *out) {
  __local int s[128];
  for (int i = get_local_id(0); i < 128; i += 32)
    s[i] = i;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = s[get_local_id(0)];
}
