//xfail:COMMAND_LINE_ERROR
//--local_size=2 --num_groups=2 --equality-abstraction --adversarial-abstraction

__kernel void foo() {

}
