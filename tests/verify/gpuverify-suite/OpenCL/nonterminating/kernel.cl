//pass
//--local_size=1024 --num_groups=256 --no-inline

__kernel void foo() {
    while(true) {
    }
}
