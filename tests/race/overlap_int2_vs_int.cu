//--blockDim=64 --gridDim=1
// Warp 0 stores an 8-byte pair (a vector store); warp 1 reads the int in its second half.
struct alignas(8) Pair {
  int a, b;
};
__global__ void k(int *v, int *out) {
  if (threadIdx.x == 0)
    *(Pair *)v = Pair{3, 4}; // @V
  if (threadIdx.x == 32)
    out[0] = ((volatile int *)v)[1]; // @R
}
