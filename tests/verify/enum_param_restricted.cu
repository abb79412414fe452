//pass
//--blockDim=64 --gridDim=2
// an enum-typed parameter takes only its enumerators' values: with `m` ADD or MUL every thread writes its own element; only another value (not an enumerator) would reach the shared write of out[0]
enum Mode { ADD, MUL };
__global__ void k(int *out, Mode m) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (m == ADD)
    out[i] = 1;
  else if (m == MUL)
    out[i] = 2;
  else
    out[0] = i;
}
