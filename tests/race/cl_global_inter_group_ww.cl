//--local_size=32 --num_groups=4
// Every work-group's first work-item writes the same global word.
__kernel void k(__global int *winner) {
  if (get_local_id(0) == 0)
    winner[0] = (int)get_group_id(0); // @W
}
