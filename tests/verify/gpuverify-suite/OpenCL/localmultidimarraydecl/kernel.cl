//pass
//--local_size=64 --num_groups=64


__kernel void foo() {

  __local float a[10][10][10][10][10];

}