//pass
//--local_size=64 --num_groups=64
void bar() {

}

__kernel void foo() {
  bar();
}
