//pass
//--blockDim=64 --gridDim=2
// Every scoped helper family once: RMWs with each order, fences, and weft::atomic_ref.
__global__ void scoped_atomics(int *x, int *y, unsigned *u) {
  int a = weft_atom_add_acq_rel_sys(x, 1);
  a += weft_atom_exch_release_cta(x + 1, a);
  a += weft_atom_cas_acquire_gpu(x + 2, 0, a);
  a += weft_atom_add_relaxed_gpu(x + 3, 2);
  weft_fence_sc_gpu();
  weft_fence_acq_rel_cta();
  a += weft_ld_relaxed_sys(y);
  weft_st_relaxed_cta(y + 1, a);
  weft::atomic_ref<unsigned, weft::thread_scope_block> r(*u);
  r.fetch_add(1u, weft::memory_order_release);
  y[2] = a + (int)r.load(weft::memory_order_acquire);
}
