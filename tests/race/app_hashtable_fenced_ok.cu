//--blockDim=32 --gridDim=4
// The hashtable with the fixes: a fence after the CAS (acquire) and a fence before an
// atomic exchange that releases the bucket lock.
__global__ void insert(int *locks, int *heads, int *keys, int *nexts, const int *in, int nb) {
  if (threadIdx.x != 0)
    return;
  int i = blockIdx.x;
  int key = in[i];
  int b = key % nb;
  while (atomicCAS(&locks[b], 0, 1) != 0)
    ;
  __threadfence();
  nexts[i] = heads[b];
  keys[i] = key;
  heads[b] = i;
  __threadfence();
  atomicExch(&locks[b], 0);
}
