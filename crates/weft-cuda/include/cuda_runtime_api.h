/* cuda_runtime_api.h for weft: see cuda.h. */
#include "cuda.h"
