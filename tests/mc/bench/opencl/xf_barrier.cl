//--local_size=3 --num_groups=4
// XF-Barrier in OpenCL 2.0 (paper 004 Table 1, grid (4,3)): Xiao and Feng's inter-group
// barrier from work-group barriers and device-scope flags (release stores, acquire loads);
// every work-item writes its slot of `data` before the barrier and reads the next group's slot
// after it (plain accesses). -DRELAXED_REL (XF-Barrier1) / -DRELAXED_ACQ (XF-Barrier2) weaken
// the flag stores / loads to relaxed: the data accesses of different groups then race.
#ifdef RELAXED_ACQ
#define ACQ memory_order_relaxed
#else
#define ACQ memory_order_acquire
#endif
#ifdef RELAXED_REL
#define REL memory_order_relaxed
#else
#define REL memory_order_release
#endif
__kernel void xf_barrier(__global atomic_int *flag_in, __global atomic_int *flag_out,
                         __global int *data, __global int *out) {
  uint b = get_group_id(0), t = get_local_id(0), nb = get_num_groups(0), nt = get_local_size(0);
  data[b * nt + t] = (int)(b * nt + t + 1);
  work_group_barrier(CLK_GLOBAL_MEM_FENCE, memory_scope_work_group);
  if (b == 0) {
    for (uint i = t + 1; i < nb; i += nt) {
      while (atomic_load_explicit(&flag_in[i], ACQ, memory_scope_device) != 1) {
      }
    }
    work_group_barrier(CLK_GLOBAL_MEM_FENCE, memory_scope_work_group);
    for (uint i = t + 1; i < nb; i += nt) {
      atomic_store_explicit(&flag_out[i], 1, REL, memory_scope_device);
    }
  } else {
    if (t == 0) {
      atomic_store_explicit(&flag_in[b], 1, REL, memory_scope_device);
      while (atomic_load_explicit(&flag_out[b], ACQ, memory_scope_device) != 1) {
      }
    }
  }
  work_group_barrier(CLK_GLOBAL_MEM_FENCE, memory_scope_work_group);
  out[b * nt + t] = data[((b + 1) % nb) * nt + t];
}
