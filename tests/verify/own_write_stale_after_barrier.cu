//xfail:ASSERT
//--blockDim=64 --gridDim=1
// after the barrier thread tid-1 overwrites s[tid] with 0 (no race: the barrier orders it after tid's write, and the second barrier before tid's read), so s[tid] is 0, not the value tid wrote before the first barrier
__global__ void k(int *out) {
  __shared__ int s[64];
  unsigned i = threadIdx.x;
  s[i] = i + 1;
  __syncthreads();
  s[(i + 1) % 64] = 0;
  __syncthreads();
  __assert(s[i] == i + 1);
  out[i] = s[i];
}
