//--blockDim=1 --gridDim=2 --buffer=ticket=1
// Each block takes a ticket and asserts it was first: one of them is not.
__global__ void take(int *ticket) {
  int old = atomicAdd(ticket, 1);
  __assert(old == 0);
}
