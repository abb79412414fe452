//--blockDim=32 --gridDim=1
// Two predicated stores to one word under two different conditions (the predicate is
// recomputed in between): two `if`s one after the other, not an if/else. A converged warp
// runs them in order, so under lock-step they do not race.
__global__ void k(int *A, int o) {
  unsigned t = threadIdx.x;
  int *p = A + o;
  asm volatile("{\n\t.reg .pred q;\n\tsetp.lt.u32 q, %0, 16;\n\t@q st.global.u32 [%1], 1;\n\tsetp.ge.u32 q, %0, 16;\n\t@q st.global.u32 [%1], 2;\n\t}" :: "r"(t), "l"(p) : "memory"); // @S
}
