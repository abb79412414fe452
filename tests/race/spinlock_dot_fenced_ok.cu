//--blockDim=64 --gridDim=8
// CUDA by Example's dot product with a global spin lock (paper 000 Fig. 2), with the fences
// paper 000 adds: each block reduces its products in shared memory, then thread 0 adds the block's
// sum to the result under the lock.
#define THREADS 64
struct Lock {
  int *mutex;
  __device__ void lock() {
    while (atomicCAS(mutex, 0, 1) != 0)
      ;
    __threadfence();
  }
  __device__ void unlock() {
    __threadfence();
    atomicExch(mutex, 0);
  }
};
__global__ void dot(const int *a, const int *b, int *c, int *mutex, unsigned n) {
  __shared__ int cache[THREADS];
  Lock l{mutex};
  int temp = 0;
  for (unsigned i = threadIdx.x + blockIdx.x * blockDim.x; i < n; i += blockDim.x * gridDim.x)
    temp += a[i] * b[i];
  cache[threadIdx.x] = temp;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s != 0; s /= 2) {
    if (threadIdx.x < s)
      cache[threadIdx.x] += cache[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    l.lock();
    *c += cache[0];
    l.unlock();
  }
}
