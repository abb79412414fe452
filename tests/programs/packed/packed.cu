// packed.cu: decodes a stream of packed records and sums the values. The host packs each
// input integer as a 5-byte record (a tag byte, then the value's 4 bytes little-endian), as
// a file format or a wire protocol lays records out; kernel `decode` gives thread i the
// value of record i (staging its block's records in shared memory and checking the tag),
// kernel `sum4` adds the decoded array with one 16-byte int4 load per thread plus a tail,
// and the host checks the values and the total against a CPU decode.
// Usage: packed INTS.txt [threads_per_block] (at most 1024).
// In the correct version every access is naturally aligned: record bytes are read and
// written one byte at a time, and the decoded array comes from cudaMalloc (256-byte
// aligned), so its int4 groups start at multiples of 16 bytes.
// Variants (-D), each one misaligned access (an address that is not a multiple of the
// access size). On a GPU it fails the launch with cudaErrorMisalignedAddress (716, sticky:
// the program's next CUDA call returns it and the program stops), and compute-sanitizer's
// memcheck reports "Invalid __SPACE__ read|write of size N bytes ... Address ... is
// misaligned" at the access's line:
//   CAST_READ: the value is read as `*(const int *)(rec + 5 * i + 1)`: a 4-byte global
//     read at byte 1 of the allocation for thread 0 (@CAST_READ);
//   SHARED_CAST_WRITE: the value is staged as `*(int *)(stage + 5 * t + 1)`: a 4-byte
//     shared write at byte 1 of the 16-byte-aligned stage for thread 0 (@SHARED_WRITE);
//   VECTOR_OFFSET: `sum4` skips the first value with `(const int4 *)(vals + 1)`: a 16-byte
//     global read at byte 4 of the allocation for thread 0 (@VECTOR_OFFSET).
// None of the variants has a race (each thread touches its own record, stage slot and
// int4 group; the total is an atomicAdd).
#include "../common/util.h"

#define MAX_TPB 1024

__global__ void decode(const unsigned char *rec, int *vals, int n) {
  __shared__ __align__(16) unsigned char stage[5 * MAX_TPB];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  if (i < n) {
#if defined(CAST_READ)
    int v = *(const int *)(rec + 5 * i + 1); // @CAST_READ
#else
    const unsigned char *r = rec + 5 * i + 1;
    int v = r[0] | r[1] << 8 | r[2] << 16 | r[3] << 24; // @READ
#endif
    stage[5 * t] = rec[5 * i];
#if defined(SHARED_CAST_WRITE)
    *(int *)(stage + 5 * t + 1) = v; // @SHARED_WRITE
#else
    for (int k = 0; k < 4; k++) stage[5 * t + 1 + k] = (unsigned char)(v >> (8 * k));
#endif
  }
  __syncthreads();
  if (i < n) {
    const unsigned char *s = stage + 5 * t;
    int v = s[1] | s[2] << 8 | s[3] << 16 | s[4] << 24;
    vals[i] = s[0] == (unsigned char)(i & 0xff) ? v : -1;
  }
}

__global__ void sum4(const int *vals, int n, int *total) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int groups = n / 4;
  if (t < groups) {
#if defined(VECTOR_OFFSET)
    int4 g = ((const int4 *)(vals + 1))[t]; // @VECTOR_OFFSET
#else
    int4 g = ((const int4 *)vals)[t]; // @VECTOR
#endif
    atomicAdd(total, g.x + g.y + g.z + g.w);
  }
  if (t < n - 4 * groups) atomicAdd(total, vals[4 * groups + t]);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s INTS.txt [threads_per_block]\n", argv[0]);
    return 2;
  }
  int n = 0;
  int *a = read_ints(argv[1], &n);
  int tpb = arg_int(argc, argv, 2, 128);
  if (tpb > MAX_TPB) {
    fprintf(stderr, "at most %d threads per block\n", MAX_TPB);
    return 2;
  }
  unsigned char *h_rec = (unsigned char *)malloc(5 * (size_t)n);
  unsigned want_total = 0; /* the device's int additions wrap: compare unsigned */
  for (int i = 0; i < n; i++) {
    h_rec[5 * i] = (unsigned char)(i & 0xff);
    for (int k = 0; k < 4; k++) h_rec[5 * i + 1 + k] = (unsigned char)((unsigned)a[i] >> (8 * k));
    want_total += (unsigned)a[i];
  }
  unsigned char *d_rec;
  int *d_vals, *d_total;
  CUDA_CHECK(cudaMalloc((void **)&d_rec, 5 * (size_t)n));
  CUDA_CHECK(cudaMalloc((void **)&d_vals, sizeof(int) * n));
  CUDA_CHECK(cudaMalloc((void **)&d_total, sizeof(int)));
  CUDA_CHECK(cudaMemcpy(d_rec, h_rec, 5 * (size_t)n, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(d_total, 0, sizeof(int)));
  int blocks = (n + tpb - 1) / tpb;
  decode<<<blocks, tpb>>>(d_rec, d_vals, n);
  LAUNCH_CHECK();
  sum4<<<blocks, tpb>>>(d_vals, n, d_total);
  LAUNCH_CHECK();
  int *vals = (int *)malloc(sizeof(int) * n), total = 0;
  CUDA_CHECK(cudaMemcpy(vals, d_vals, sizeof(int) * n, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&total, d_total, sizeof(int), cudaMemcpyDeviceToHost));
  int rc = 1;
  if ((unsigned)total != want_total)
    printf("FAIL: total %u, expected %u\n", (unsigned)total, want_total);
  else
    rc = verdict_ints("values", vals, a, n);
  CUDA_CHECK(cudaFree(d_rec));
  CUDA_CHECK(cudaFree(d_vals));
  CUDA_CHECK(cudaFree(d_total));
  free(a);
  free(h_rec);
  free(vals);
  return rc;
}
