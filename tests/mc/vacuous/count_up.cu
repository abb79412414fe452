//--blockDim=1 --gridDim=1 --buffer=c=1
// A loop whose exit reads memory and that writes on every iteration (not a spin loop):
// it runs 9 times, so the default --unroll 2 cuts every execution. weft mc must not
// call that "Errors: none" (issue 28): exit 3, "nothing is verified", the loop's line.
__global__ void count_up(int *c) {
  while (atomicAdd(c, 1) < 8) {
  }
}
