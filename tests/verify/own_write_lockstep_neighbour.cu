//xfail:ASSERT
//--blockDim=32 --gridDim=1 --warp-sync=32
// lanes of one warp run in lock-step: lane tid-1's write of s[tid] at the next instruction is no race (one warp, two instructions), so s[tid] is 0 when lane tid reads it
__global__ void k(int *out) {
  __shared__ int s[32];
  unsigned i = threadIdx.x;
  s[i] = 1;
  s[(i + 1) % 32] = 0;
  __assert(s[i] == 1);
  out[i] = s[i];
}
