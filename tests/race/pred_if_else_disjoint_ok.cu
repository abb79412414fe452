//--blockDim=32 --gridDim=1
// The predicated if/else of pred_if_else_stores.cu, with each path writing its own word.
__global__ void k(int *A, int o) {
  unsigned t = threadIdx.x;
  int *p = A + o;
  asm volatile("{\n\t.reg .pred q;\n\tsetp.lt.u32 q, %0, 16;\n\t@q st.global.u32 [%1], 1;\n\t@!q st.global.u32 [%1+4], 2;\n\t}" :: "r"(t), "l"(p) : "memory"); // @S
}
