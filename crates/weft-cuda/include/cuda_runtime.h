/* cuda_runtime.h for weft: see cuda.h. */
#include "cuda.h"
