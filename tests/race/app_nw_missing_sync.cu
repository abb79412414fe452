//--blockDim=64 --gridDim=1
// nw with 64 threads on a 64-wide tile and the per-diagonal barrier dropped: the
// dependence between consecutive diagonals crosses warps (threads 31 and 32).
#define B 64
__global__ void nw(const int *ref, int *score, int penalty) {
  __shared__ int s[B + 1][B + 1];
  int tx = threadIdx.x;
  s[0][tx + 1] = -(tx + 1) * penalty;
  s[tx + 1][0] = -(tx + 1) * penalty;
  if (tx == 0)
    s[0][0] = 0;
  __syncthreads();
  for (int d = 0; d < 2 * B - 1; ++d) {
    int i = tx + 1, j = d - tx + 1;
    if (j >= 1 && j <= B) {
      int a = s[i - 1][j - 1] + ref[(i - 1) * B + (j - 1)]; // @A
      int b = s[i - 1][j] - penalty, c = s[i][j - 1] - penalty; // @BC
      int m = a > b ? a : b;
      s[i][j] = m > c ? m : c; // @W
    }
  }
  __syncthreads();
  score[tx] = s[B][tx + 1];
}
