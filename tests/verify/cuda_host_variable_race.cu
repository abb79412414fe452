//xfail:RACE
//--gridDim=2 --blockDim=64
// hand-derived: `counter` is a file-scope variable without __device__, which device code reads as global memory (GPUVerify's reading); every thread of both blocks writes it with its own id, a write-write race
int counter;

__global__ void count(int *out) {
  counter = threadIdx.x;
  out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}
