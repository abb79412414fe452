// An API weft's runtime does not implement: the program stops with its name, exit code 3.
#include <cstdio>

int main() {
  void *p;
  size_t pitch;
  printf("before\n");
  fflush(stdout);
  cudaMallocPitch(&p, &pitch, 64, 64);
  printf("after\n");
  return 0;
}
