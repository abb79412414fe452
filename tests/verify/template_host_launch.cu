//pass
//--blockDim=64 --gridDim=4
// a template kernel instantiated by the file's host code (k<float>): each thread writes its own element
template <typename T>
__global__ void k(T *out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = (T)1;
}
void launch(float *out) { k<float><<<4, 64>>>(out); }
