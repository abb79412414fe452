//xfail:RACE
//--blockDim=64 --gridDim=1
// paper 002 §5 (CUDA SDK Mandelbrot bug): base read without a barrier after the master writes it
__global__ void mandel(unsigned *counter, int *out) {
  __shared__ unsigned base;
  if (threadIdx.x == 0) base = atomicAdd(counter, 64u);
  out[base + threadIdx.x] = 1;
}
