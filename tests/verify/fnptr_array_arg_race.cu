//xfail:RACE
//--blockDim=64 --gridDim=1
// hand-derived: through the function pointer, threads 2j and 2j+1 both write v[j] (index threadIdx.x / 2) with different values: a write-write race on v
__device__ void twice(float *v, unsigned i) { v[i / 2] = v[i] * 2.0f; }
__device__ void half(float *v, unsigned i) { v[i / 2] = v[i] * 0.5f; }
typedef void (*op_t)(float *, unsigned);
__global__ void k(float *v, op_t f) {
  __requires(f == twice | f == half);
  f(v, threadIdx.x);
}
