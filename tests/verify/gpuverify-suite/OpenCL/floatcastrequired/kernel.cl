//pass
//--local_size=64 --num_groups=64


__kernel void foo() {

  float x = 2;
  x = exp(x);

}