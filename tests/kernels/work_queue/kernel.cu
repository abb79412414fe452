//pass
//--blockDim=64 --gridDim=4
// Mandelbrot-style work distribution (paper 002 Fig. 3): threads take element indices from an
// atomic counter until the work runs out; the per-element work (iterations of z = z*z + c on
// a fixed-point grid) varies, as for fractal pixels.
__device__ int compute(int i, int width) {
  int cx = (i % width) * 4 - 2 * width;
  int cy = (i / width) * 4 - 2 * width;
  int zx = 0, zy = 0, it = 0;
  while (it < 64) {
    int x2 = zx * zx / width, y2 = zy * zy / width;
    if (x2 + y2 > 4 * width) break;
    zy = 2 * zx * zy / width + cy;
    zx = x2 - y2 + cx;
    it++;
  }
  return it;
}
__global__ void work_queue(int *out, unsigned *counter, unsigned max, int width) {
  unsigned i = atomicAdd(counter, 1u);
  while (i < max) {
    out[i] = compute((int)i, width);
    i = atomicAdd(counter, 1u);
  }
}
