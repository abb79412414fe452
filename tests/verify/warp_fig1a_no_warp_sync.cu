//xfail:RACE
//--blockDim=32 --gridDim=1
// without lock-step (no --warp-sync) the same kernel races
__global__ void add(int *A) {
  A[threadIdx.x] = A[threadIdx.x] + A[(threadIdx.x + 1) % 32];
}
