//pass
//--gridDim=4 --blockDim=128
// hand-derived: thread t reads and writes only angle[t] (global index, 512 distinct); atanf and atan2f (missing from weft's CUDA headers before) only compute the value written
__global__ void angles(float *angle, const float *h) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  angle[t] = atanf(angle[t] / h[t]) + atan2f(h[t], angle[t]);
}
