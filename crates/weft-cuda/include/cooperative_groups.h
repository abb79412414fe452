/* cooperative_groups.h for weft: cooperative groups live in weft_cuda.h. */
#include "cuda.h"
