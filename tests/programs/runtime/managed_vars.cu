// __managed__ variables: one name used by the host and by kernels. Expected output from CUDA's
// semantics (a kernel sees the host's writes made before its launch; the host sees the
// kernel's writes once it has synchronised; a symbol copy writes the same variable):
//   counter starts at its initializer 5; the host adds 10 -> 15; `bump` on 4 threads adds 1
//   each (atomically) -> 19; `squares` writes table[i] = i*i for i < 4, the host sums them
//   0+1+4+9 = 14; cudaMemcpyToSymbol(counter, 100) -> the host reads 100; bump<<<1,2>>> -> 102,
//   read back by cudaMemcpyFromSymbol as well.
#include <cstdio>

__managed__ int counter = 5;
__managed__ int table[4];

__global__ void bump() { atomicAdd(&counter, 1); }
__global__ void squares() { table[threadIdx.x] = threadIdx.x * threadIdx.x; }

int main() {
  printf("start %d\n", counter);
  counter += 10;
  bump<<<1, 4>>>();
  cudaDeviceSynchronize();
  printf("after bump %d\n", counter);
  squares<<<1, 4>>>();
  cudaDeviceSynchronize();
  int sum = 0;
  for (int i = 0; i < 4; i++) sum += table[i];
  printf("sum %d\n", sum);
  int h = 100;
  cudaMemcpyToSymbol(counter, &h, sizeof(int));
  printf("after copy %d\n", counter);
  bump<<<1, 2>>>();
  cudaDeviceSynchronize();
  int back = 0;
  cudaMemcpyFromSymbol(&back, counter, sizeof(int));
  printf("final %d %d\n", counter, back);
  return 0;
}
