//pass
//--blockDim=32 --gridDim=8 --warp-sync=32 --only-warp
// every block writes A[0..32]: racy across blocks, but --only-warp checks one warp's threads
__global__ void k(int *A) {
  A[threadIdx.x] = (int)blockIdx.x;
}
