// compact.cu: stream compaction: the values of an integer array (read from a file) above a
// threshold are appended to `out` through a global counter (atomicAdd gives each its slot;
// the order is not kept). Usage: compact INTS.txt [threshold [threads_per_block
// [num_blocks]]]; checks the count and the multiset of values against the CPU.
// Variants (-D): MISSING_ATOMIC (the counter read and written plainly: threads get the same
// slot), WRONG_SCOPE (atomicAdd_block on the one counter all blocks share).
#include "../common/util.h"

__global__ void compact(const int *in, int n, int threshold, int *out, int *count) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    int v = in[i];
    if (v > threshold) {
#ifdef MISSING_ATOMIC
      int p = *count; *count = p + 1; // @SLOT_PLAIN
#elif defined(WRONG_SCOPE)
      int p = atomicAdd_block(count, 1); // @SLOT_BLOCK
#else
      int p = atomicAdd(count, 1); // @SLOT
#endif
      out[p] = v; // @OUT
    }
  }
}

static int cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s INTS.txt [threshold [threads_per_block [num_blocks]]]\n", argv[0]);
    return 2;
  }
  int n = 0;
  int *h = read_ints(argv[1], &n);
  int threshold = arg_int(argc, argv, 2, 50);
  int tpb = arg_int(argc, argv, 3, 64), blocks = arg_int(argc, argv, 4, 2);
  int *d_in = to_device(h, n), *d_out, *d_count;
  CUDA_CHECK(cudaMalloc((void **)&d_out, sizeof(int) * n));
  CUDA_CHECK(cudaMalloc((void **)&d_count, sizeof(int)));
  CUDA_CHECK(cudaMemset(d_count, 0, sizeof(int)));
  compact<<<blocks, tpb>>>(d_in, n, threshold, d_out, d_count);
  LAUNCH_CHECK();
  int count = 0, want = 0;
  CUDA_CHECK(cudaMemcpy(&count, d_count, sizeof(int), cudaMemcpyDeviceToHost));
  int *sel = (int *)malloc(sizeof(int) * n), *got = (int *)malloc(sizeof(int) * n);
  for (int i = 0; i < n; i++)
    if (h[i] > threshold) sel[want++] = h[i];
  int rc = 0;
  if (count != want) {
    printf("FAIL: %d values selected, expected %d\n", count, want);
    rc = 1;
  } else {
    CUDA_CHECK(cudaMemcpy(got, d_out, sizeof(int) * (count > 0 ? count : 1), cudaMemcpyDeviceToHost));
    qsort(got, (size_t)count, sizeof(int), cmp_int);
    qsort(sel, (size_t)want, sizeof(int), cmp_int);
    rc = verdict_ints("selected", got, sel, want);
  }
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));
  CUDA_CHECK(cudaFree(d_count));
  free(h);
  free(sel);
  free(got);
  return rc;
}
