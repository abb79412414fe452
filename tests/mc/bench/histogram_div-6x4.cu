//--blockDim=4 --gridDim=6
// histogram6 (paper 004 Table 3, grid (6,4)): histogram_div.cu.
#include "histogram_div.cu"
