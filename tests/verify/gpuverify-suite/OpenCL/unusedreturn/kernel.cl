//pass
//--local_size=64 --num_groups=64
int bar() {

  return 0;

}

__kernel void foo() {

  bar();

}