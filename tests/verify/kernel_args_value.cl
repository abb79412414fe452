//pass
//--local_size=2 --num_groups=1 --kernel-args=foo,0x00000003
// --kernel-args gives the non-pointer parameter x the value 3 (GPUVerify's misc/pass/misc15):
// only the x == 3 branch runs, each work-item writes its own element.
kernel void foo(local int *A, int x) {
  if (x == 3) {
    A[get_local_id(0)] = 3;
  } else {
    A[0] = get_local_id(0);
  }
}
