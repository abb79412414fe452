//xfail:RACE
//--blockDim=64 --gridDim=1
// paper 002 Fig. 1a: thread t+1 writes S[t+1] while thread t reads it, no barrier between
__global__ void add(int *A) {
  __shared__ int S[64];
  S[threadIdx.x] = A[threadIdx.x];
  __syncthreads();
  S[threadIdx.x] = S[threadIdx.x] + S[(threadIdx.x + 1) % 64];
  __syncthreads();
  A[threadIdx.x] = S[threadIdx.x];
}
