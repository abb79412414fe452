//pass
//--blockDim=32 --gridDim=4
// CUDA: the barrier invariant instantiated at the thread's left neighbour gives its value
// after __syncthreads
#define tid threadIdx.x

__global__ void k(int *out) {
  __shared__ int s[32];
  s[tid] = tid + 7;
  __barrier_invariant_2(s[tid] == tid + 7, tid, (tid + 31) % 32);
  __syncthreads();
  int v = s[(tid + 31) % 32];
  __assert(v == (tid + 31) % 32 + 7);
  out[blockIdx.x * 32 + tid] = v;
}
