//pass
//--blockDim=64 --gridDim=4
// paper 002 §4.2/§5 simplified Mandelbrot: atomic increments give distinct indices (repetition-free refinement)
__global__ void mandel(unsigned *counter, int *out) {
  unsigned i = atomicAdd(counter, 1u);
  out[i] = blockIdx.x * 64 + threadIdx.x;
}
