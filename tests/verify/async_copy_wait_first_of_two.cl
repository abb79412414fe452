//xfail:RACE
//--local_size=64 --num_groups=8
// the wait names only the first of the two events of the array (GPUVerify's async_work_group_copy/fail/test2 pattern): the copy into `my_q` is not complete after it (OpenCL 1.2 §6.12.10), so reading `my_q` races with that copy's writes
kernel void k(global float *__restrict p, global float *__restrict q, global float *out) {
  local float my_p[64];
  local float my_q[64];
  event_t ev[2];
  ev[0] = async_work_group_copy(my_p, p + 64 * get_group_id(0), 64, 0);
  ev[1] = async_work_group_copy(my_q, q + 64 * get_group_id(0), 64, 0);
  wait_group_events(1, ev);
  out[get_global_id(0)] = my_p[get_local_id(0)] + my_q[get_local_id(0)];
}
