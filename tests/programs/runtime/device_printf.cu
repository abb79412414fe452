// Device printf is not implemented by weft's emulator yet: launching a kernel of a module
// that calls it stops the program with a message naming it and exit code 3 (never silently
// dropping the output).
#include <cstdio>

__global__ void hello() { printf("hello from thread %d\n", threadIdx.x); }

int main() {
  printf("host\n");
  fflush(stdout);
  hello<<<1, 2>>>();
  cudaDeviceSynchronize();
  return 0;
}
