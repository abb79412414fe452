//pass
//--blockDim=32 --gridDim=1
// __syncwarp orders the warp's accesses even without lock-step
__global__ void k(int *out) {
  __shared__ int s[32];
  unsigned l = threadIdx.x;
  s[l] = l;
  __syncwarp();
  out[l] = s[l ^ 1];
}
