//xfail:RACE
//--gridDim=4 --blockDim=64
// hand-derived: `__device__ __shared__` local array as in gpgpu-sim's DG kernels; thread t writes s[t] and reads s[63 - t] with no barrier between (thread 63 - t writes it: a read-write race)
__global__ void k(float *out) {
  __device__ __shared__ float s[64];
  s[threadIdx.x] = threadIdx.x;
  out[blockIdx.x * blockDim.x + threadIdx.x] = s[63 - threadIdx.x];
}
