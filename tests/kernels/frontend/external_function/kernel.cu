//pass
//--blockDim=4 --gridDim=1
// A call of a device function the file declares but does not define (GPUVerify's test
// suite has many): lowered as a procedure without a body, which touches no memory.
__device__ void trace_value(int v);

__global__ void store(int *out) {
  int t = threadIdx.x;
  out[t] = 3 * t;
  trace_value(out[t]);
}
