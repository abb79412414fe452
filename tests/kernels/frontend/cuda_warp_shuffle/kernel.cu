//pass
//--blockDim=8 --gridDim=2
// Warp shuffles (__shfl_sync, __shfl_up_sync, __shfl_down_sync, __shfl_xor_sync) on an
// 8-thread block (one partial warp), a warp reduction, and the _system / _block atomic
// variants; float2/float3 vector types with make_* and the math shim.
__global__ void k(int *rot, int *up, int *down, int *xr, int *sum, int *sys, unsigned *blk,
                  float *len) {
  int t = threadIdx.x, g = blockIdx.x, i = g * 8 + t;
  unsigned m = 0xffu;
  rot[i] = __shfl_sync(m, t * 10, (t + 1) % 8);
  up[i] = __shfl_up_sync(m, t, 2);
  down[i] = __shfl_down_sync(m, t, 3, 8);
  xr[i] = __shfl_xor_sync(m, t, 1);
  int v = t + 1;
  for (int d = 4; d > 0; d /= 2)
    v += __shfl_down_sync(m, v, d, 8);
  if (t == 0)
    sum[g] = v;
  atomicAdd_system(&sys[0], t);
  atomicMax_system(&sys[1], i);
  atomicCAS_system(&sys[2], 0, 5);
  atomicOr_block(&blk[g], 1u << t);
  float3 a = make_float3((float)t, 0.0f, 0.0f);
  float2 b = make_float2(3.0f, 4.0f);
  len[i] = sqrtf(b.x * b.x + b.y * b.y) + a.x + fmaxf(a.y, 0.5f);
}
