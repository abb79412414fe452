//xfail:ASSERT
//--local_size=32 --num_groups=4
// buf is read before the assertion, so __read(buf) holds and the assertion fails
__kernel void k(__local int *buf, __global int *out) {
  out[get_global_id(0)] = buf[get_local_id(0)];
  __assert(__no_read(buf));
  buf[get_local_id(0)] = 7;
}
