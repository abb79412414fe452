//xfail:RACE
//--blockDim=16 --gridDim=1
// every thread writes its own id to A[0]: different values, a write-write race (GPUVerify's race_on_shared)
__global__ void k() {
  __shared__ int A[16];
  A[0] = threadIdx.x;
}
