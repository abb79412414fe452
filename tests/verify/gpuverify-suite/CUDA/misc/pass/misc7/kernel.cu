//pass
//--blockDim=2 --gridDim=1

__global__ void foo(char **argument)
{
}
