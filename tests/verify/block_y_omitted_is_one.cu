//pass
//--blockDim=64 --gridDim=1
// a one-component block is [64,1,1] (the omitted y and z stay 1, as in GPUVerify's headers): every thread has threadIdx.y == 0, so the writes are to distinct elements
__global__ void k(int *out) {
  out[threadIdx.x + threadIdx.y] = 1;
}
