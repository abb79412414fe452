//pass
//--local_size=64 --num_groups=1 --equality-abstraction
// every work-item writes i to A[i], then reads A[j]: where j is i it reads back the value it wrote itself, which the other's equal write cannot change (GPUVerify's readafterwrite)
__kernel void k(__local int *A, __local int *B, int i, int j) {
  A[i] = i;
  B[j] = A[j];
}
