//pass
//--blockDim=64 --gridDim=1
// hand-derived: whichever function the pointer selects, thread i reads and writes only v[i]: the array pointer passed through the indirect call keeps its array, the distinct elements verify
__device__ void twice(float *v, unsigned i) { v[i] = v[i] * 2.0f; }
__device__ void half(float *v, unsigned i) { v[i] = v[i] * 0.5f; }
typedef void (*op_t)(float *, unsigned);
__global__ void k(float *v, op_t f) {
  __requires(f == twice | f == half);
  f(v, threadIdx.x);
}
