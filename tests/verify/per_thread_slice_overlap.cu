//xfail:RACE
//--blockDim=32 --gridDim=1
// thread t fills 64 words from t*32: the second half of its slice is the next thread's first; threads write their own ids (the same value everywhere would be a benign race)
__global__ void k(float *B) {
  for (unsigned j = 0; j < 64; j++)
    B[threadIdx.x * 32 + j] = threadIdx.x;
}
