//xfail:RACE
//--blockDim=64 --gridDim=2
// the same kernel as enum_param_restricted.cu with a third enumerator: with `m` == OTHER every thread writes out[0], a race
enum Mode { ADD, MUL, OTHER };
__global__ void k(int *out, Mode m) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (m == ADD)
    out[i] = 1;
  else if (m == MUL)
    out[i] = 2;
  else
    out[0] = i;
}
