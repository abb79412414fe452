//--blockDim=1 --gridDim=1
// host_counter.cu launched four times: the fourth launch reads 3 and its assertion fails.
#include "host_counter.cu"
