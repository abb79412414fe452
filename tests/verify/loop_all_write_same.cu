//xfail:RACE
//--blockDim=64 --gridDim=1
// all threads write out[0..n)
__global__ void k(int *out, unsigned n) {
  for (unsigned j = 0; j < n; j++) out[j] = threadIdx.x;
}
