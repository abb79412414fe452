// transpose.cu: out = transpose(in) for a W x H integer matrix (W columns, H rows; entries
// generated from their indices), staged through a padded 8 x 8 shared tile (64 threads per
// block: two warps, tile rows 0-3 and 4-7). Usage: transpose W H; checks every element.
// Variants (-D): MISSING_SYNC (no barrier between filling the tile and reading it
// transposed), NO_BOUNDS (the store to `out` has no bounds check; with H a multiple of 8
// and W not, only the rows past the end of `out` are hit).
#include "../common/util.h"

#define TILE 8

__global__ void transpose(const int *in, int *out, int W, int H) {
  __shared__ int tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  if (x < W && y < H)
    tile[threadIdx.y][threadIdx.x] = in[y * W + x]; // @STORE
#ifndef MISSING_SYNC
  __syncthreads();
#endif
  int ox = blockIdx.y * TILE + threadIdx.x, oy = blockIdx.x * TILE + threadIdx.y;
#ifdef NO_BOUNDS
  out[oy * H + ox] = tile[threadIdx.x][threadIdx.y]; // @READ_NOCHECK
#else
  if (ox < H && oy < W)
    out[oy * H + ox] = tile[threadIdx.x][threadIdx.y]; // @READ
#endif
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s W H\n", argv[0]);
    return 2;
  }
  int W = arg_int(argc, argv, 1, 1), H = arg_int(argc, argv, 2, 1);
  int *in = (int *)malloc(sizeof(int) * W * H), *out = (int *)malloc(sizeof(int) * W * H);
  for (int i = 0; i < W * H; i++) in[i] = i * 3 + 1;
  int *d_in = to_device(in, W * H), *d_out;
  CUDA_CHECK(cudaMalloc((void **)&d_out, sizeof(int) * W * H));
  dim3 block(TILE, TILE), grid((W + TILE - 1) / TILE, (H + TILE - 1) / TILE);
  transpose<<<grid, block>>>(d_in, d_out, W, H);
  LAUNCH_CHECK();
  CUDA_CHECK(cudaMemcpy(out, d_out, sizeof(int) * W * H, cudaMemcpyDeviceToHost));
  int rc = 0;
  for (int y = 0; y < H && rc == 0; y++)
    for (int x = 0; x < W && rc == 0; x++)
      if (out[x * H + y] != in[y * W + x]) {
        printf("FAIL: out[%d][%d] = %d, expected %d\n", x, y, out[x * H + y], in[y * W + x]);
        rc = 1;
      }
  if (rc == 0) printf("PASS: %d x %d transposed\n", W, H);
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));
  free(in);
  free(out);
  return rc;
}
