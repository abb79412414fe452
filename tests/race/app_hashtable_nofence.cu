//--blockDim=32 --gridDim=4
// Paper 003 §6.3's hashtable: a chained hash table whose buckets are protected by
// fine-grained locks taken with atomicCAS without a fence and released with a plain store.
// One inserter per block (lane 0), keys chosen so that blocks collide on buckets.
__global__ void insert(int *locks, int *heads, int *keys, int *nexts, const int *in, int nb) {
  if (threadIdx.x != 0)
    return;
  int i = blockIdx.x;
  int key = in[i], b = key % nb;
  while (atomicCAS(&locks[b], 0, 1) != 0) // @LOCK
    ;
  nexts[i] = heads[b]; // @RH
  keys[i] = key;
  heads[b] = i; // @WH
  locks[b] = 0; // @UNLOCK
}
