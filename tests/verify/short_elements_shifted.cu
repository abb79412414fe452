//xfail:RACE
//--blockDim=64 --gridDim=1
// threads 2k and 2k+1 write the same element
__global__ void k(short *A) { A[threadIdx.x / 2] = (short)threadIdx.x; }
