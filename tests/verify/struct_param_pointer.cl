//pass
//--local_size=64 --num_groups=4
// A structure passed by value whose field is a pointer (clang: `.param .b8 foo_param_1[8]`,
// no `.ptr` mark): its field is an array, not an integer, so the copy below is race-free
// and in bounds (GPUVerify's test_structs/use_ptr_element with a smaller launch).

struct s {
  __global int *p;
};

__kernel void foo(__global int *p, struct s q) {
  __requires(q.p == p);
  p[get_global_id(0)] = q.p[get_global_id(0)];
}
