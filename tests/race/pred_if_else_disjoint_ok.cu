//--blockDim=32 --gridDim=1
// The predicated if/else of pred_if_else_stores.cu, with each path writing its own word.
__global__ void k(int *A, int o) {
  unsigned t = threadIdx.x;
  int *p = A + o;
  asm volatile("{ .reg .pred q; setp.lt.u32 q, %0, 16; @q st.global.u32 [%1], 1; @!q st.global.u32 [%1+4], 2; }" :: "r"(t), "l"(p) : "memory"); // @S
}
