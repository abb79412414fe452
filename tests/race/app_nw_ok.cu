//--blockDim=16 --gridDim=1
// Rodinia nw (Needleman-Wunsch), reduced: a 16x16 tile of the score matrix is filled
// along anti-diagonals in shared memory, one barrier per diagonal.
#define B 16
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
      int a = s[i - 1][j - 1] + ref[(i - 1) * B + (j - 1)];
      int b = s[i - 1][j] - penalty, c = s[i][j - 1] - penalty;
      int m = a > b ? a : b;
      s[i][j] = m > c ? m : c;
    }
    __syncthreads();
  }
  for (int j = 0; j <= B; ++j)
    score[tx * (B + 1) + j] = s[tx][j];
}
