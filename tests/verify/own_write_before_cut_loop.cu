//xfail:ASSERT
//--blockDim=64 --gridDim=1
// s[tid] is written before the loop and the first iteration reads it back, but every iteration then has thread tid-1 overwrite s[tid] between two barriers (no race), so from the second iteration on s[tid] is j + 1, not the value tid wrote before the loop
__global__ void k(int *out, int n) {
  __shared__ int s[64];
  unsigned i = threadIdx.x;
  s[i] = 1;
  for (int j = 0; j < n; j++) {
    __assert(s[i] == 1);
    __syncthreads();
    s[(i + 1) % 64] = j + 2;
    __syncthreads();
  }
  out[i] = s[i];
}
