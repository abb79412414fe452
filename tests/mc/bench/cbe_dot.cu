//--blockDim=4 --gridDim=2
// CUDA by Example's dot product with a global spin lock (paper 000 §3, Fig. 2; the original
// has no fences): each block reduces its products in shared memory (barriers), then thread 0
// adds the block's sum into *c inside lock()/unlock() built from atomicCAS/atomicExch. The
// lock's atomics are relaxed and unfenced, so the two blocks' plain read-modify-write of *c
// are not ordered by happens-before: a data race (and a lost update on hardware).
// -DFIXED adds __threadfence() after acquiring and before releasing: fence-fence
// synchronisation orders the critical sections.
#include <weft_cuda.h>
#define THREADS 4
__global__ void dot(const int *a, const int *b, int *c, int *mutex, int n) {
  __shared__ int cache[THREADS];
  int temp = 0;
  for (int i = (int)(threadIdx.x + blockIdx.x * blockDim.x); i < n; i += (int)(blockDim.x * gridDim.x)) {
    temp += a[i] * b[i];
  }
  cache[threadIdx.x] = temp;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s != 0; s /= 2) {
    if (threadIdx.x < s) {
      cache[threadIdx.x] += cache[threadIdx.x + s];
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    while (atomicCAS(mutex, 0, 1) != 0) {
    }
#ifdef FIXED
    __threadfence();
#endif
    *c += cache[0];
#ifdef FIXED
    __threadfence();
#endif
    atomicExch(mutex, 0);
  }
}
