//--blockDim=32 --gridDim=1
// A predicated store followed by an unguarded load of the same word by all lanes: the
// region of the predicate ends at the unguarded access (reconvergence), which is ordered
// after the store under lock-step.
__global__ void k(int *A, int *out, int o) {
  unsigned t = threadIdx.x;
  int *p = A + o;
  int v;
  asm volatile("{\n\t.reg .pred q;\n\tsetp.eq.u32 q, %1, 3;\n\t@q st.global.u32 [%2], 7;\n\tld.global.u32 %0, [%2];\n\t}" : "=r"(v) : "r"(t), "l"(p) : "memory"); // @S
  out[t] = v;
}
