//pass
//--blockDim=32 --gridDim=1 --warp-sync=32
// paper 002 §2.2: 32 threads in one lock-step warp read before any writes
__global__ void add(int *A) {
  A[threadIdx.x] = A[threadIdx.x] + A[(threadIdx.x + 1) % 32];
}
