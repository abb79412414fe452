/* device_launch_parameters.h for weft: see cuda.h. */
#include "cuda.h"
