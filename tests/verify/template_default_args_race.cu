//xfail:RACE
//--blockDim=64 --gridDim=1
// a template kernel with a default argument and no launch in the file: verified as k<> (N = 32), where threads t and t+32 write the same element
template <int N = 32>
__global__ void k(int *out) {
  out[threadIdx.x % N] = threadIdx.x;
}
