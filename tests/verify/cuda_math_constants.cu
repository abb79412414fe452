//pass
//--gridDim=2 --blockDim=32
// hand-derived: CUDART_PI_F (the toolkit's math_constants.h, used by the CUDA samples without including it) only scales the value written; thread t reads and writes only a[t] (64 distinct)
__global__ void k(float *a) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  a[t] = a[t] * (2.0f * CUDART_PI_F);
}
