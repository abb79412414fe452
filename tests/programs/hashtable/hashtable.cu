// hashtable.cu: a chained hash table built on the device: keys read from a file, entry i
// holds key i, each bucket's chain is a linked list through `next`. Inserts take the
// bucket's spin lock (atomicCAS, a fence; the fence and atomicExch release it), written so
// that threads of one warp never wait on each other's lock (the loop keeps the lock-free
// lanes going). Usage: hashtable KEYS.txt [threads_per_block [num_blocks [buckets]]];
// checks that every bucket's chain holds exactly its keys.
// Variants (-D): NO_LOCK (the chain updated without the lock), NO_FENCE (the lock without
// fences), BLOCK_FENCE (__threadfence_block instead of __threadfence: blocks are not
// ordered), EXCH (lock-free: atomicExch swaps the head, race-free).
#include "../common/util.h"

#if defined(NO_FENCE)
#define FENCE()
#elif defined(BLOCK_FENCE)
#define FENCE() __threadfence_block()
#else
#define FENCE() __threadfence()
#endif

__global__ void insert(const int *keys, int n, int *locks, int *heads, int *next, int nb) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    int b = keys[i] % nb;
#if defined(NO_LOCK)
    next[i] = heads[b]; // @LINK_NOLOCK
    heads[b] = i; // @HEAD_NOLOCK
#elif defined(EXCH)
    int old = atomicExch(&heads[b], i); // @XHEAD
    next[i] = old;
#else
    bool done = false;
    while (!done) {
      if (atomicCAS(&locks[b], 0, 1) == 0) {
        FENCE();
        next[i] = heads[b]; // @LINK
        heads[b] = i; // @HEAD
        FENCE();
        atomicExch(&locks[b], 0);
        done = true;
      }
    }
#endif
  }
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s KEYS.txt [threads_per_block [num_blocks [buckets]]]\n", argv[0]);
    return 2;
  }
  int n = 0;
  int *keys = read_ints(argv[1], &n);
  int tpb = arg_int(argc, argv, 2, 64), blocks = arg_int(argc, argv, 3, 2);
  int nb = arg_int(argc, argv, 4, 16);
  int *heads = (int *)malloc(sizeof(int) * nb), *next = (int *)malloc(sizeof(int) * n);
  for (int b = 0; b < nb; b++) heads[b] = -1;
  int *d_keys = to_device(keys, n), *d_heads = to_device(heads, nb), *d_locks, *d_next;
  CUDA_CHECK(cudaMalloc((void **)&d_locks, sizeof(int) * nb));
  CUDA_CHECK(cudaMemset(d_locks, 0, sizeof(int) * nb));
  CUDA_CHECK(cudaMalloc((void **)&d_next, sizeof(int) * n));
  insert<<<blocks, tpb>>>(d_keys, n, d_locks, d_heads, d_next, nb);
  LAUNCH_CHECK();
  CUDA_CHECK(cudaMemcpy(heads, d_heads, sizeof(int) * nb, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(next, d_next, sizeof(int) * n, cudaMemcpyDeviceToHost));
  /* every entry reached once, from the bucket of its key; chains of the right lengths */
  int *seen = (int *)calloc((size_t)n, sizeof(int));
  int rc = 0, found = 0;
  for (int b = 0; b < nb && rc == 0; b++) {
    for (int i = heads[b], steps = 0; i != -1; i = next[i], steps++) {
      if (i < 0 || i >= n || steps > n || seen[i] || keys[i] % nb != b) {
        printf("FAIL: bucket %d: bad entry %d\n", b, i);
        rc = 1;
        break;
      }
      seen[i] = 1;
      found++;
    }
  }
  if (rc == 0 && found != n) {
    printf("FAIL: %d of %d keys in the table\n", found, n);
    rc = 1;
  }
  if (rc == 0) printf("PASS: %d keys in %d buckets\n", n, nb);
  CUDA_CHECK(cudaFree(d_keys));
  CUDA_CHECK(cudaFree(d_heads));
  CUDA_CHECK(cudaFree(d_locks));
  CUDA_CHECK(cudaFree(d_next));
  free(keys);
  free(heads);
  free(next);
  free(seen);
  return rc;
}
