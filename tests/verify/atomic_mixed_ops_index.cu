//xfail:RACE
//--blockDim=64 --gridDim=1
// two different operations on the counter: not repetition-free (Def. 4.1), values may repeat; threads write their own ids (the same value everywhere would be a benign race)
__global__ void k(int *counter, int *out) {
  int i = threadIdx.x % 2 ? atomicAdd(counter, 1) : atomicSub(counter, 1);
  out[i] = threadIdx.x;
}
