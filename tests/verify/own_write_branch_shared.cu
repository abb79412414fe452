//pass
//--blockDim=64 --gridDim=2
// the thread's last own write of s[tid] is the one on its branch (odd threads overwrite it), no other thread of the block writes s[tid] and each block has its own copy, so the read sees 2 or 1
__global__ void k(int *out) {
  __shared__ int s[64];
  unsigned i = threadIdx.x;
  s[i] = 1;
  if (i % 2 == 1)
    s[i] = 2;
  int x = s[i];
  __assert(x == ((i % 2 == 1) ? 2 : 1));
  out[blockIdx.x * 64 + i] = x;
}
