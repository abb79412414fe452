//pass
//--blockDim=64 --gridDim=1
// race-free: thread 0 zeroes n, a barrier, then the 64 atomicAdds return 0..63 once each, so every buf[i] is written by one thread; weft verifies it with the repetition-free refinement relaxed for block-shared counters that are also set plainly between barriers (GPUVerify verifies the same pattern: its testsuite labels OpenCL/atomics/counter `pass`); this kernel was labelled as an expected false positive before that
__global__ void k(int *out) {
  __shared__ unsigned n;
  __shared__ int buf[64];
  if (threadIdx.x == 0) n = 0;
  __syncthreads();
  unsigned i = atomicAdd(&n, 1u);
  buf[i] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = buf[threadIdx.x];
}
