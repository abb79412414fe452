//pass
//--blockDim=32 --gridDim=2

__global__ void foo() {
    __threadfence();
}
