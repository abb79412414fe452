//--blockDim=16 --gridDim=1
// ArrayFire select-matches style kernel (paper 004 Table 3, arrayfire-sm at grid (1,16)):
// each thread takes the distance of one candidate match, the block finds the best one with a
// shared-memory tree reduction, and thread 0 writes it out if it is under the threshold. The
// bug (as in the paper's benchmark): only threads whose candidate is valid
// (`dist < max_dist`) enter the reduction, which contains __syncthreads: barrier divergence
// whenever the candidates are not all valid or all invalid.
#include <weft_cuda.h>
#define N 16
__global__ void select_matches(const int *dist, int max_dist, int *best_idx, int *best_dist) {
  __shared__ int s_dist[N];
  __shared__ int s_idx[N];
  unsigned t = threadIdx.x;
  int d = dist[t];
  s_dist[t] = d;
  s_idx[t] = (int)t;
  __syncthreads();
  if (d < max_dist) {
    for (unsigned s = N / 2; s > 0; s /= 2) {
      if (t < s && s_dist[t + s] < s_dist[t]) {
        s_dist[t] = s_dist[t + s];
        s_idx[t] = s_idx[t + s];
      }
      __syncthreads();
    }
  }
  if (t == 0 && s_dist[0] < max_dist) {
    *best_idx = s_idx[0];
    *best_dist = s_dist[0];
  }
}
