//pass
//--local_size=2 --num_groups=1 --kernel-args=foo,0x0000000500000003
// A structure passed by value takes its bytes from the --kernel-args value, little-endian:
// x.a is the low word (3) and x.b the high word (5) (GPUVerify's misc/pass/misc19 layout).
struct pack {
  int a;
  int b;
};

kernel void foo(struct pack x) {
  __assert(x.a == 3);
  __assert(x.b == 5);
}
