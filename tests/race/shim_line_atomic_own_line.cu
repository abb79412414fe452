//--blockDim=32 --gridDim=2
// atomicAdd (inlined from weft's shim header) on its own line after other statements: the
// report names the call's line, not the statement before it (the shim has no debug info,
// so clang gives the inlined code the call's location).
__global__ void k(int *count, int *out, int *seen) {
  int t = threadIdx.x;
  out[blockIdx.x * 32 + t] = t * 2;
  int v = out[blockIdx.x * 32 + t] + 1;
  atomicAdd(&count[0], v); // @A
  if (blockIdx.x == 1 && t == 0)
    seen[0] = count[0]; // @R
}
