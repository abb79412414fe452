// matmul.cu: C = A x B for float matrices with small integer entries (exact sums), tiled
// through shared memory (8 x 8 tiles, 64 threads per block: two warps, rows 0-3 and 4-7),
// barriers after loading a tile and after using it. Usage: matmul M N K (sizes; the
// entries are generated from their indices); checks C against a CPU product.
// Variants (-D): MISSING_SYNC_LOAD (no barrier after loading the tiles), MISSING_SYNC_END
// (no barrier before the next tile is loaded; needs K > 8), NO_BOUNDS_B (B's tile is
// loaded without the bounds check; needs K not a multiple of 8).
#include "../common/util.h"

#define TILE 8

__global__ void matmul(const float *A, const float *B, float *C, int M, int N, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += TILE) {
    As[ty][tx] = (row < M && k0 + tx < K) ? A[row * K + k0 + tx] : 0.0f; // @LOADA
#ifdef NO_BOUNDS_B
    Bs[ty][tx] = B[(k0 + ty) * N + col]; // @LOADB_NOCHECK
#else
    Bs[ty][tx] = (k0 + ty < K && col < N) ? B[(k0 + ty) * N + col] : 0.0f; // @LOADB
#endif
#ifndef MISSING_SYNC_LOAD
    __syncthreads();
#endif
    for (int k = 0; k < TILE; k++)
      acc += As[ty][k] * Bs[k][tx]; // @MAC
#ifndef MISSING_SYNC_END
    __syncthreads();
#endif
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: %s M N K\n", argv[0]);
    return 2;
  }
  int M = arg_int(argc, argv, 1, 1), N = arg_int(argc, argv, 2, 1), K = arg_int(argc, argv, 3, 1);
  float *A = (float *)malloc(sizeof(float) * M * K), *B = (float *)malloc(sizeof(float) * K * N);
  float *C = (float *)malloc(sizeof(float) * M * N);
  for (int i = 0; i < M * K; i++) A[i] = (float)((i * 7) % 5 - 2);
  for (int i = 0; i < K * N; i++) B[i] = (float)((i * 3) % 7 - 3);
  float *dA, *dB, *dC;
  CUDA_CHECK(cudaMalloc((void **)&dA, sizeof(float) * M * K));
  CUDA_CHECK(cudaMalloc((void **)&dB, sizeof(float) * K * N));
  CUDA_CHECK(cudaMalloc((void **)&dC, sizeof(float) * M * N));
  CUDA_CHECK(cudaMemcpy(dA, A, sizeof(float) * M * K, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dB, B, sizeof(float) * K * N, cudaMemcpyHostToDevice));
  dim3 block(TILE, TILE), grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
  matmul<<<grid, block>>>(dA, dB, dC, M, N, K);
  LAUNCH_CHECK();
  CUDA_CHECK(cudaMemcpy(C, dC, sizeof(float) * M * N, cudaMemcpyDeviceToHost));
  int rc = 0;
  for (int r = 0; r < M && rc == 0; r++)
    for (int c = 0; c < N && rc == 0; c++) {
      float want = 0.0f;
      for (int k = 0; k < K; k++) want += A[r * K + k] * B[k * N + c];
      if (C[r * N + c] != want) {
        printf("FAIL: C[%d][%d] = %g, expected %g\n", r, c, C[r * N + c], want);
        rc = 1;
      }
    }
  if (rc == 0) printf("PASS: C (%d x %d)\n", M, N);
  CUDA_CHECK(cudaFree(dA));
  CUDA_CHECK(cudaFree(dB));
  CUDA_CHECK(cudaFree(dC));
  free(A);
  free(B);
  free(C);
  return rc;
}
