//--local_size=2 --num_groups=2
// An inter-group barrier in the shape of Dat3M's OpenCL benchmark `xf-barrier.cl`
// (benchmarks/opencl/benchmarks/ in hernanponcedeleon/Dat3M; this is our own code, written
// from its description): every work-item writes its element of `in`, group 0 waits for a
// flag from each other group (one waiting work-item per group), meets at a work-group
// barrier and hands the flags back; every other group raises its flag and waits for it to
// be reset. After the barrier every work-item sums ALL of `in` in a loop bounded by the
// launch (`for (i = 0; i < global_size; i++)`), the loop issue 28 found cut at the default
// `--unroll 2` (no complete execution, "Errors: none").
//
// Planted weakenings, as Dat3M's variants: -DFAIL1 group 0's flag load relaxed (acquire),
// -DFAIL2 group 0's flag reset relaxed (release), -DFAIL3 the other groups' flag store
// relaxed (release), -DFAIL4 their wait load relaxed (acquire), -DWEAKEST all four.
#ifdef WEAKEST
#define FAIL1
#define FAIL2
#define FAIL3
#define FAIL4
#endif
#ifdef FAIL1
#define ORD_WAIT0 memory_order_relaxed
#else
#define ORD_WAIT0 memory_order_acquire
#endif
#ifdef FAIL2
#define ORD_RESET memory_order_relaxed
#else
#define ORD_RESET memory_order_release
#endif
#ifdef FAIL3
#define ORD_RAISE memory_order_relaxed
#else
#define ORD_RAISE memory_order_release
#endif
#ifdef FAIL4
#define ORD_WAIT memory_order_relaxed
#else
#define ORD_WAIT memory_order_acquire
#endif
__kernel void xf_barrier_sum(__global atomic_uint *flag, __global uint *in, __global uint *out) {
  uint g = get_group_id(0);
  uint l = get_local_id(0);
  uint groups = get_num_groups(0);
  uint me = get_global_id(0);
  uint n = get_global_size(0);
  in[me] = me + 1;
  if (g == 0) {
    // Work-item l waits for group l + 1.
    if (l + 1 < groups) {
      while (atomic_load_explicit(&flag[l + 1], ORD_WAIT0, memory_scope_device) == 0) {
      }
    }
    work_group_barrier(CLK_GLOBAL_MEM_FENCE);
    if (l + 1 < groups) {
      atomic_store_explicit(&flag[l + 1], 0, ORD_RESET, memory_scope_device);
    }
  } else {
    work_group_barrier(CLK_GLOBAL_MEM_FENCE);
    if (l == 0) {
      atomic_store_explicit(&flag[g], 1, ORD_RAISE, memory_scope_device);
      while (atomic_load_explicit(&flag[g], ORD_WAIT, memory_scope_device) == 1) {
      }
    }
    work_group_barrier(CLK_GLOBAL_MEM_FENCE);
  }
  uint sum = 0;
  for (uint i = 0; i < n; i++) {
    sum += in[i];
  }
  out[me] = sum;
}
