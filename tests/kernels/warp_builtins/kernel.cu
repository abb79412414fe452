//pass
//--blockDim=64 --gridDim=1
// The CUDA built-ins of weft's shim header, one result slot per thread and built-in:
// shuffles (xor, up, idx, down with a width), votes, ballot, activemask, __syncthreads_count/
// and/or, every atomic, and the scoped memory-model helpers. Expected values are derived by
// hand in kernel.json.
__global__ void warp_builtins(int *shfl, int *vote, int *sync, int *atom) {
  int t = threadIdx.x;
  int lane = t % 32;
  const unsigned full = 0xffffffffu;
  shfl[t] = __shfl_xor_sync(full, t, 1);
  shfl[64 + t] = __shfl_up_sync(full, t, 3);
  shfl[128 + t] = __shfl_sync(full, t * 10, 5);
  shfl[192 + t] = __shfl_down_sync(full, t, 2, 8);
  vote[t] = __any_sync(full, lane == 7);
  vote[64 + t] = __all_sync(full, t < 40);
  vote[128 + t] = (int)__ballot_sync(full, lane % 3 == 0);
  if (lane < 4) {
    vote[192 + t] = (int)__activemask();
  } else {
    vote[192 + t] = -1;
  }
  __syncwarp();
  sync[t] = __syncthreads_count(t % 2 == 0);
  sync[64 + t] = __syncthreads_and(t < 64);
  sync[128 + t] = __syncthreads_or(t == 63);
  atomicInc((unsigned *)&atom[0], 9u);
  atomicDec((unsigned *)&atom[1], 9u);
  atomicMin(&atom[2], t + 5);
  atomicMax(&atom[3], t);
  atomicSub(&atom[4], 2);
  atomicAnd(&atom[5], ~(1 << (t % 16)));
  atomicOr(&atom[6], 1 << (t % 31));
  atomicXor(&atom[7], 1);
  atomicExch(&atom[8], 7);
  atomicCAS(&atom[9], 0, t + 1);
  __threadfence_block();
  weft_atom_add_acq_rel_gpu(&atom[10], 1);
  if (t == 0) {
    weft_st_release_gpu(&atom[11], 42);
  }
}
