//pass
//--local_size=64 --num_groups=4
// the same kernel as uninitialised_local_read.cl with `x` assigned on both paths: nothing is read uninitialised and each work-item writes its own element
kernel void k(global int *out, int n) {
  int x;
  if (n > 0)
    x = n;
  else
    x = 0;
  out[get_global_id(0)] = x;
}
