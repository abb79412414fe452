//--blockDim=32 --gridDim=1
// `if (t < 16) *p = 1; else *p = 2;` as nvcc if-converts it: two stores guarded by
// complementary predicates (inline PTX, so that clang cannot turn it into a branch or a
// select). Seen as a branch (paper 003 §4.1), the two paths of the warp are unordered.
__global__ void k(int *A, int o) {
  unsigned t = threadIdx.x;
  int *p = A + o;
  asm volatile("{\n\t.reg .pred q;\n\tsetp.lt.u32 q, %0, 16;\n\t@q st.global.u32 [%1], 1;\n\t@!q st.global.u32 [%1], 2;\n\t}" :: "r"(t), "l"(p) : "memory"); // @S
}
