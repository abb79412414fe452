//--blockDim=1 --gridDim=1
// Host-ordered launches (issue 13): one thread increments a plain counter per launch and
// asserts it is below LIMIT. With `--launches N` the launches run one after the other with
// the buffer kept: launch k reads k (no race: launch k-1's store happens before launch k's
// load, through the host's synchronisation).
#include <weft_cuda.h>
#ifndef LIMIT
#define LIMIT 3
#endif
__global__ void host_counter(int *x) {
  int v = x[0];
  __assert(v < LIMIT);
  x[0] = v + 1;
}
