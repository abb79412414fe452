//pass
//--local_size=64 --num_groups=64 --no-inline
__kernel void foo() {

  float x = 2.0f;
  float y = 2.0f;

  if(x < y) {

  }

}
