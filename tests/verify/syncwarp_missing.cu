//xfail:RACE
//--blockDim=32 --gridDim=1
// no __syncwarp and no lock-step assumption
__global__ void k(int *out) {
  __shared__ int s[32];
  unsigned l = threadIdx.x;
  s[l] = l;
  out[l] = s[l ^ 1];
}
