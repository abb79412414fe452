//pass
//--gridDim=4 --blockDim=64
// hand-derived: `__device__ __shared__` on a kernel's local array (as in gpgpu-sim's DG kernels) is a per-block shared array; thread t writes s[t], and after the barrier reads s[63 - t] and writes only out[global index] (256 distinct)
__global__ void k(float *out) {
  __device__ __shared__ float s[64];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = s[63 - threadIdx.x];
}
