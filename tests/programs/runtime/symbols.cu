// __constant__ and __device__ variables: cudaMemcpyToSymbol, cudaMemcpyFromSymbol,
// cudaGetSymbolAddress, an initialised __device__ variable. Expected output from the design:
// coefficients 2,3 applied to 0..3 (2*i+3), the counter initialised to 100 plus 4 atomic adds.
#include <cstdio>

__constant__ int coef[2];
__device__ int counter = 100;
__device__ int result[4];

__global__ void apply() {
  int i = threadIdx.x;
  result[i] = coef[0] * i + coef[1];
  atomicAdd(&counter, 1);
}

int main() {
  int h[2] = {2, 3};
  cudaMemcpyToSymbol(coef, h, sizeof h);
  apply<<<1, 4>>>();
  int r[4], c = 0;
  cudaMemcpyFromSymbol(r, result, sizeof r);
  cudaMemcpyFromSymbol(&c, counter, sizeof c);
  printf("result %d %d %d %d\n", r[0], r[1], r[2], r[3]);
  printf("counter %d\n", c);
  int *p = 0;
  cudaGetSymbolAddress((void **)&p, result);
  int r2[4];
  cudaMemcpy(r2, p, sizeof r2, cudaMemcpyDeviceToHost);
  printf("by address %d %d %d %d\n", r2[0], r2[1], r2[2], r2[3]);
  return 0;
}
