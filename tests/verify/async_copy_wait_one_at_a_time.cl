//pass
//--local_size=64 --num_groups=8
// two copies in one event array, waited one at a time: after the first wait only `my_p` is read (the copy into `my_q` may still be running, but nothing touches `my_q` or `q` until its own wait), then `my_q` is read after the wait on its event
kernel void k(global float *__restrict p, global float *__restrict q, global float *out) {
  local float my_p[64];
  local float my_q[64];
  event_t ev[2];
  ev[0] = async_work_group_copy(my_p, p + 64 * get_group_id(0), 64, 0);
  ev[1] = async_work_group_copy(my_q, q + 64 * get_group_id(0), 64, 0);
  wait_group_events(1, ev);
  float a = my_p[get_local_id(0)];
  wait_group_events(1, &ev[1]);
  out[get_global_id(0)] = a + my_q[get_local_id(0)];
}
