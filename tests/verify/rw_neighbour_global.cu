//xfail:RACE
//--blockDim=64 --gridDim=1
// thread t reads A[t+1] that thread t+1 writes
__global__ void k(int *A) { A[threadIdx.x] = A[threadIdx.x + 1] + 1; }
