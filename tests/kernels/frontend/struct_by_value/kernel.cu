//pass
//--blockDim=4 --gridDim=1
// Structs passed by value: a kernel parameter (PTX `.param .align 4 .b8 p[12]`, bound with
// `--arg p=3,10,0.5`, fields at C's natural alignment), a device function taking one and
// another returning one (PTX `.param .b8 func_retval0[8]`).
#include "cuda.h"
struct Params { int scale; int offset; float bias; };
struct Pair { int a; int b; };
__device__ Pair make_pair_of(int t, Params p) { Pair r; r.a = t * p.scale; r.b = t + p.offset; return r; }
__device__ int sum_pair(Pair q) { return q.a + q.b; }
__global__ void k(Params p, int *out, float *fo) {
  int t = threadIdx.x;
  Pair q = make_pair_of(t, p);
  out[t] = sum_pair(q);
  fo[t] = p.bias + t;
}
