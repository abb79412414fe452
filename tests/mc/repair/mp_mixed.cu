//--blockDim=1 --gridDim=2
// Repair test: message passing across blocks with a plain payload and a block-scope flag.
// Block 0 writes data then sets the flag with a block-scope exchange (after a block-scope
// fence, which orders nothing for block 1); block 1 reads the flag with a block-scope RMW
// and then the data. Races: the plain data store and load (data race: no happens-before,
// both plain), and the two flag RMWs (heterogeneous: both atomic, block scope, different
// blocks).
#include <weft_cuda.h>
__global__ void mp_mixed(int *data, int *flag, int *out) {
  if (blockIdx.x == 0) {
    data[0] = 42;
    __threadfence_block();
    atomicExch_block(&flag[0], 1);
  } else {
    int f = atomicAdd_block(&flag[0], 0);
    int d = data[0];
    out[0] = f * 100 + d;
  }
}
