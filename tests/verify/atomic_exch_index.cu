//xfail:RACE
//--blockDim=64 --gridDim=1
// atomicExch returns values that may repeat (a thread may get back an index another also got); threads write their own ids (the same value everywhere would be a benign race)
__global__ void k(int *slot, int *out) {
  int i = atomicExch(slot, threadIdx.x);
  out[i] = threadIdx.x;
}
