//xfail:RACE
//--blockDim=[4,4] --gridDim=[1,1]
// without the second barrier the next tile overwrites a/b while others still read
#define T 4
#define N 8
__global__ void mm(const float *A, const float *B, float *C) {
  __shared__ float a[T][T], b[T][T];
  unsigned r = threadIdx.y, c = threadIdx.x;
  float acc = 0;
  for (unsigned k = 0; k < N / T; k++) {
    a[threadIdx.y][threadIdx.x] = A[r * N + k * T + threadIdx.x];
    b[threadIdx.y][threadIdx.x] = B[(k * T + threadIdx.y) * N + c];
    __syncthreads();
    for (unsigned j = 0; j < T; j++) acc += a[threadIdx.y][j] * b[j][threadIdx.x];
  }
  C[r * N + c] = acc;
}
