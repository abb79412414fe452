//pass
//--blockDim=1 --gridDim=2
// Message passing across blocks with weft's scoped helpers: the producer writes data and
// releases the flag at gpu scope, the consumer acquires the flag at gpu scope.
__global__ void scoped_mp(int *data, int *flag, int *result) {
  if (blockIdx.x == 0) {
    data[0] = 42;
    weft_st_release_gpu(flag, 1);
  } else {
    while (weft_ld_acquire_gpu(flag) == 0) {
    }
    result[0] = data[0];
  }
}
