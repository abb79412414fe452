//--blockDim=64 --gridDim=2
// One location, three atomics. Block 0: warp 0 adds with block scope, then warp 1 with
// device scope; block 1: warp 0 adds with device scope. Nothing orders them. Under the
// scoped definition the block-scoped add of block 0 is not atomic with respect to block 1:
// it races with block 1's add (@A/@C), even though a device-scoped add of block 0 (@B) came
// later; @B and @C are both device-scoped (no race).
__global__ void k(int *c) {
  int w = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (lane != 0)
    return;
  if (blockIdx.x == 0 && w == 0)
    atomicAdd_block(&c[0], 1); // @A
  else if (blockIdx.x == 0 && w == 1)
    atomicAdd(&c[0], 2); // @B
  else if (blockIdx.x == 1 && w == 0)
    atomicAdd(&c[0], 4); // @C
}
