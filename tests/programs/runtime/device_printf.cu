// Device printf (issue 26 item 1): each conversion CUDA's printf supports, printed by three
// threads of one warp in one call (lanes in increasing order), then by thread 0 alone; an
// assert that holds; printf's result (the number of arguments, CUDA's documented value: a
// `*` width or precision is an argument too, so the `%a`/`*` line returns 13).
// The expected output (device_printf.expected) is C's printf of these values; the device
// output is flushed at the launch's end, after the host's earlier output.
#include <cassert>
#include <cstdio>

__global__ void formats(const char *word, int n) {
  int t = threadIdx.x;
  assert(t < n);
  int r = printf("t%d|%i|%u|%x|%X|%o|%c|%s|\n", t, -t, 4000000000u + t, 255 + t, 255 + t,
                 8 + t, 'a' + t, word);
  if (t == 0) {
    printf("%ld %lld %lu|%5d|%-5d|%05d|%+d|%.3d|%#x|%#o|%%\n", -1L, -1234567890123LL,
           18446744073709551615UL, 42, 42, -42, 7, 7, 255, 8);
    printf("%f %.2f %8.3f %e %.3E %g %g %G|%-6.1f|\n", 1.5, 0.25f, -1.23456, 12345.678,
           0.000123, 100000.0, 1000000.0, 0.00001, 2.0);
    printf("%s %p %5s|%.2s|\n", "lit", (void *)0x1000, "ab", "xyz");
    printf("returned %d\n", r);
    printf("no arguments\n");
    int r2 = printf("%a %A %.1a %010a|%*d|%-*d|%.*f|%*.*s|\n", 1.0, 255.75, 1.03125, -0.5, 5,
                    42, 4, 7, 2, 3.14159, 6, 2, "xyz");
    printf("returned %d\n", r2);
  }
}

int main() {
  printf("host before\n");
  char *d;
  cudaMalloc(&d, 8);
  cudaMemcpy(d, "word", 5, cudaMemcpyHostToDevice);
  formats<<<1, 3>>>(d, 3);
  cudaError_t e = cudaDeviceSynchronize();
  printf("host after: %s\n", cudaGetErrorName(e));
  return 0;
}
