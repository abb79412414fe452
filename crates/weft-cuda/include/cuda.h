/* cuda.h for weft: GPUVerify's CUDA header name. weft's CUDA shim (weft_cuda.h) and the
 * GPUVerify specification dialect (weft_gpuverify.h) are force-included already; this file
 * only makes `#include "cuda.h"` / `#include <cuda.h>` resolve. */
#include "weft_cuda.h"
#include "weft_gpuverify.h"
