//pass
//--local_size=64 --num_groups=64 --no-inline


void f(int x) {

}

__kernel void foo() {

  f(2);

}
