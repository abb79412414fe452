//xfail:RACE
//--blockDim=[16,16] --gridDim=[4,4]
// hand-derived: threads (2j,y) and (2j+1,y) both write out[(y*64+2j)/2] with values computed from different texture fetches: a write-write race on out
__global__ void k(float4 *out, cudaTextureObject_t tex) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  float4 a = tex2D<float4>(tex, x, y);
  float s, c;
  __sincosf(a.x, &s, &c);
  out[(y * 64 + x) / 2] = a * s + make_float4(c);
}
