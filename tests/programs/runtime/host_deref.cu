// The classic host-side bug: dereferencing a device pointer on the host. On a GPU this
// crashes (the address is not host memory); under weft it must crash too (SIGSEGV).
#include <cstdio>

int main() {
  int *d;
  cudaMalloc(&d, 16);
  printf("before\n");
  fflush(stdout);
  d[0] = 1;
  printf("after %d\n", d[0]);
  return 0;
}
