// chain.cu: block offsets of an array by a chained hand-off between blocks (the serial
// look-back of a single-pass scan): block b sums its tile in shared memory, then its thread 0
// waits until block b-1 has published its inclusive prefix, adds its own sum and publishes
// prefix[b] for block b+1. Publishing is a release pattern of the PTX memory model
// (__threadfence(); then an atomic write of the flag), waiting an acquire pattern (an atomic
// read of the flag that sees it set, then __threadfence()): they synchronise, so the read of
// prefix[b-1] is ordered after its write (docs/race.md, "Trace operations", E5-E6).
// Usage: chain INTS.txt [threads_per_block]; checks prefix[] against a CPU reference.
// Variants (-D): WAIT_EXCH / WAIT_CAS (the wait polls with atomicExch(flag, 0) /
// atomicCAS(flag, 1, 1) instead of atomicAdd(flag, 0): race-free), NO_ACQ_FENCE (no fence
// after the wait), NO_REL_FENCE (no fence before the flag is set), BLOCK_FENCE
// (__threadfence_block on both sides: the other block is outside its scope), BLOCK_ATOMIC
// (the flag set and polled with atomicAdd_block: CTA-scoped atomics, so neither pattern
// includes the other block, and the two blocks' atomics race under scopes).
#include "../common/util.h"

#if defined(BLOCK_FENCE)
#define REL_FENCE() __threadfence_block()
#define ACQ_FENCE() __threadfence_block()
#elif defined(NO_ACQ_FENCE)
#define REL_FENCE() __threadfence()
#define ACQ_FENCE()
#elif defined(NO_REL_FENCE)
#define REL_FENCE()
#define ACQ_FENCE() __threadfence()
#else
#define REL_FENCE() __threadfence()
#define ACQ_FENCE() __threadfence()
#endif

#if defined(WAIT_EXCH)
#define POLL(flag) atomicExch(flag, 0) /* one reader per flag: taking it is enough */
#elif defined(WAIT_CAS)
#define POLL(flag) atomicCAS(flag, 1, 1)
#elif defined(BLOCK_ATOMIC)
#define POLL(flag) atomicAdd_block(flag, 0)
#else
#define POLL(flag) atomicAdd(flag, 0)
#endif

#if defined(BLOCK_ATOMIC)
#define PUBLISH(flag) atomicAdd_block(flag, 1)
#else
#define PUBLISH(flag) atomicAdd(flag, 1)
#endif

__global__ void chain(const int *in, int n, int *prefix, int *flags) {
  extern __shared__ int s[];
  unsigned t = threadIdx.x, b = blockIdx.x;
  unsigned i = b * blockDim.x + t;
  s[t] = i < (unsigned)n ? in[i] : 0;
  __syncthreads();
  for (unsigned d = blockDim.x / 2; d > 0; d >>= 1) {
    if (t < d)
      s[t] += s[t + d];
    __syncthreads();
  }
  if (t == 0) {
    int prev = 0;
    if (b > 0) {
      while (POLL(&flags[b - 1]) == 0) // @WAIT
        ;
      ACQ_FENCE();
      prev = prefix[b - 1]; // @READ
    }
    prefix[b] = prev + s[0]; // @WRITE
    REL_FENCE();
    PUBLISH(&flags[b]); // @SET
  }
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s INTS.txt [threads_per_block]\n", argv[0]);
    return 2;
  }
  int n = 0;
  int *in = read_ints(argv[1], &n);
  int tpb = arg_int(argc, argv, 2, 64);
  if (tpb & (tpb - 1) || tpb > 1024) {
    fprintf(stderr, "threads_per_block must be a power of two up to 1024\n");
    return 2;
  }
  int blocks = (n + tpb - 1) / tpb;
  int *d_in = to_device(in, n), *d_prefix, *d_flags;
  CUDA_CHECK(cudaMalloc((void **)&d_prefix, sizeof(int) * blocks));
  CUDA_CHECK(cudaMalloc((void **)&d_flags, sizeof(int) * blocks));
  CUDA_CHECK(cudaMemset(d_flags, 0, sizeof(int) * blocks));
  chain<<<blocks, tpb, sizeof(int) * tpb>>>(d_in, n, d_prefix, d_flags);
  LAUNCH_CHECK();
  int *prefix = (int *)malloc(sizeof(int) * blocks);
  CUDA_CHECK(cudaMemcpy(prefix, d_prefix, sizeof(int) * blocks, cudaMemcpyDeviceToHost));
  /* CPU reference: inclusive sums of the tiles' sums */
  int rc = 0, acc = 0;
  for (int b = 0; b < blocks && rc == 0; b++) {
    for (int i = b * tpb; i < n && i < (b + 1) * tpb; i++) acc += in[i];
    if (prefix[b] != acc) {
      printf("FAIL: prefix[%d] = %d, expected %d\n", b, prefix[b], acc);
      rc = 1;
    }
  }
  if (rc == 0) printf("PASS: %d blocks, total %d\n", blocks, acc);
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_prefix));
  CUDA_CHECK(cudaFree(d_flags));
  free(in);
  free(prefix);
  return rc;
}
