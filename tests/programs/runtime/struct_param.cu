// Kernels taking structs by value (issue 26): clang reads a field of `g` through the
// parameter's address (`mov.b64 %rd, _Z4diffi1GPi_param_1; ld.param.u64 %rd, [%rd+8]`) and
// the array field of `w` at an index computed per thread. `diff` writes it * (a[t+1] - a[t])
// for t < g.n with a[i] = i * i, so 2 * (2t + 1) for t < 7 and leaves o[7] at 0; `pick`
// writes w.w[t % 4].
#include <cstdio>

struct G {
  int n;
  int *a;
};
struct W {
  int w[4];
};

__global__ void diff(const int it, const G g, int *o) {
  if (threadIdx.x < g.n) o[threadIdx.x] = it * (g.a[threadIdx.x + 1] - g.a[threadIdx.x]);
}

__global__ void pick(const W w, int *o) { o[threadIdx.x] = w.w[threadIdx.x % 4]; }

int main() {
  int h[9], r[8];
  for (int i = 0; i < 9; i++) h[i] = i * i;
  int *a, *o;
  cudaMalloc(&a, sizeof h);
  cudaMalloc(&o, sizeof r);
  cudaMemcpy(a, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemset(o, 0, sizeof r);
  G g = {7, a};
  diff<<<1, 8>>>(2, g, o);
  cudaMemcpy(r, o, sizeof r, cudaMemcpyDeviceToHost);
  printf("diff");
  for (int i = 0; i < 8; i++) printf(" %d", r[i]);
  printf("\n");
  W w = {{10, 20, 30, 40}};
  pick<<<1, 8>>>(w, o);
  cudaMemcpy(r, o, sizeof r, cudaMemcpyDeviceToHost);
  printf("pick");
  for (int i = 0; i < 8; i++) printf(" %d", r[i]);
  printf("\n");
  cudaFree(a);
  cudaFree(o);
  return 0;
}
