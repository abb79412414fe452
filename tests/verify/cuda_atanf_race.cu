//xfail:RACE
//--gridDim=4 --blockDim=128
// hand-derived: thread t writes angle[t] and reads angle[t + 1], which thread t + 1 writes, with no barrier between (a read-write race)
__global__ void angles(float *angle, const float *h) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  angle[t] = atanf(angle[t + 1] / h[t]);
}
