//pass
//--blockDim=16 --gridDim=2
// each thread of a block owns 32 consecutive shared words, filled and then summed
__global__ void k(int *out) {
  __shared__ int s[16 * 32];
  for (int j = 0; j < 32; j++)
    s[threadIdx.x * 32 + j] = j;
  int acc = 0;
  for (int j = 0; j < 32; j++)
    acc += s[threadIdx.x * 32 + j];
  out[blockIdx.x * 16 + threadIdx.x] = acc;
}
