//pass
//--gridDim=1
// one block of any size (the block is left out): each thread writes its own shared slot, a barrier, then reads its left neighbour's slot and writes its own global element
__global__ void k(int *out) {
  __shared__ int s[1024];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x > 0 ? threadIdx.x - 1 : 0];
}
