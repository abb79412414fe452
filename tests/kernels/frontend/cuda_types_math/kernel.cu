//pass
//--blockDim=4 --gridDim=1
// CUDA runtime/vector types and math: size_t, NULL, uint4/make_uint4, sqrtf, fabsf, fminf,
// atomicAdd_block, __ballot_sync, __syncwarp.
__global__ void k(uint4 *v, float *f, int *c, unsigned *b) {
  size_t t = threadIdx.x;
  int *none = NULL;
  v[t] = make_uint4(t, t + 1, t + 2, none == NULL ? 7 : 0);
  f[t] = sqrtf((float)(t * t)) + fabsf(-1.5f) + fminf(2.0f, (float)t);
  atomicAdd_block(c, (int)t);
  __syncwarp();
  b[t] = __ballot_sync(0xf, t % 2 == 1);
}
