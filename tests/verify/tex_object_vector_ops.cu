//pass
//--blockDim=[16,16] --gridDim=[4,4]
// hand-derived: a 64x64 grid of threads, thread (x,y) writes only out[y*64+x]; texture fetches (object and reference, normalised read mode) are values, not memory accesses, so the float4 arithmetic on them cannot race
texture<uchar4, 2, cudaReadModeNormalizedFloat> img;
__global__ void k(float4 *out, cudaTextureObject_t tex) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  float4 a = tex2D<float4>(tex, x, y);
  float4 b = tex2D(img, x, y);
  float s, c;
  __sincosf(a.x, &s, &c);
  float4 r = a * s + make_float4(c) - (-b) / 2.0f;
  r += make_float4(make_float3(b), dot(a, b));
  out[y * 64 + x] = r;
}
