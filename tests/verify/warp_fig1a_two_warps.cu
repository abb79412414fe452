//xfail:RACE
//--blockDim=64 --gridDim=1 --warp-sync=32
// paper 002 §3.1: threads 31/32 and 63/0 are in different warps
__global__ void add(int *A) {
  A[threadIdx.x] = A[threadIdx.x] + A[(threadIdx.x + 1) % 64];
}
