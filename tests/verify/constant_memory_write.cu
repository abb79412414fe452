//xfail:MEMORY
//--blockDim=32 --gridDim=1
// a kernel stores into __constant__ data, which is read-only on the device
__constant__ float coeff[32];
__global__ void k(const float *in) {
  coeff[threadIdx.x] = in[threadIdx.x];
}
