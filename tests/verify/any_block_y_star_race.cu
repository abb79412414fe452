//xfail:RACE
//--blockDim=[32,*] --gridDim=1
// `*` in the y component is any y extent: threads (x,0) and (x,1) of the block write the same element
__global__ void k(int *out) {
  out[threadIdx.x] = threadIdx.y;
}
