//--blockDim=32 --gridDim=1
// Half the lanes write 1, half write 2 to the same word in one instruction.
__global__ void k(int *out) {
  __shared__ int s[1];
  s[0] = threadIdx.x & 1; // @W
  __syncthreads();
  if (threadIdx.x == 0)
    out[0] = s[0];
}
