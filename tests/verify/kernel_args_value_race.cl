//xfail:RACE
//--local_size=2 --num_groups=1 --kernel-args=foo,0x00000004
// --kernel-args gives x the value 4: the else branch runs, both work-items write A[0]
// different values (their ids): a write-write race.
kernel void foo(local int *A, int x) {
  if (x == 3) {
    A[get_local_id(0)] = 3;
  } else {
    A[0] = get_local_id(0);
  }
}
