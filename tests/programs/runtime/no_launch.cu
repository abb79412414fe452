// A program whose runs check nothing unless it is asked to launch (the honest report when no
// launch ran, docs/programs.md "Nothing checked"). The first argument selects:
//   (none)  no kernel is launched; exit 0      -> race/memcheck: nothing checked, exit 3
//   launch  one race-free launch (each thread writes its own word); exit 0 -> 0 races, exit 0
//   fail    no kernel is launched; exit 4      -> nothing checked, the program's own 4
//   crash   a device pointer dereferenced on the host before any launch -> SIGSEGV, 139
//   spin    the first launch never ends (a flag nobody sets) -> stopped by --timeout, exit 3
#include <cstdio>
#include <cstring>

__global__ void own(int *a) { a[threadIdx.x] = threadIdx.x; }

__global__ void wait_forever(volatile int *f) {
  while (f[0] == 0) {
  }
}

int main(int argc, char **argv) {
  const char *what = argc > 1 ? argv[1] : "";
  int *d;
  cudaMalloc(&d, 64 * sizeof(int));
  cudaMemset(d, 0, 64 * sizeof(int));
  if (strcmp(what, "launch") == 0) {
    own<<<1, 64>>>(d);
    cudaDeviceSynchronize();
  } else if (strcmp(what, "crash") == 0) {
    d[0] = 1;
  } else if (strcmp(what, "spin") == 0) {
    wait_forever<<<1, 32>>>(d);
    cudaDeviceSynchronize();
  }
  printf("done %s\n", what);
  cudaFree(d);
  return strcmp(what, "fail") == 0 ? 4 : 0;
}
