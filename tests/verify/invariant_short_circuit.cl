//xfail:INVARIANT
//--local_size=16 --num_groups=7
// GPUVerify rejects a loop invariant whose condition short-circuits (`&&` branches before the loop head)
__kernel void k(__local float *p) {
  for (unsigned i = get_local_id(0);
       __invariant((i >= 0) && ((i % 16) == get_local_id(0))),
       i < 100; i += 16) {
  }
}
