//pass
//--local_size=[64,64] --num_groups=[64,64] --no-inline

__kernel void foo()
{
  float fval = (float)2;
}
