//--blockDim=32 --gridDim=1
// Two predicated stores to one word under two different conditions (the predicate is
// recomputed in between): two `if`s one after the other, not an if/else. A converged warp
// runs them in order, so under lock-step they do not race.
__global__ void k(int *A, int o) {
  unsigned t = threadIdx.x;
  int *p = A + o;
  asm volatile("{ .reg .pred q; setp.lt.u32 q, %0, 16; @q st.global.u32 [%1], 1; setp.ge.u32 q, %0, 16; @q st.global.u32 [%1], 2; }" :: "r"(t), "l"(p) : "memory"); // @S
}
