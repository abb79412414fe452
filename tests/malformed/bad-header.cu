//pass
//--blockDim=64 --warp-sync=0
__global__ void k(int *a) { a[threadIdx.x] = 1; }
