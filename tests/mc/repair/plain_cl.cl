//--local_size=1 --num_groups=2
// Repair test (OpenCL 2.0): two work-groups store to a plain int, a data race.
// Repair makes the store a relaxed atomic_store_explicit of device scope; the declaration
// stays `__global int *` (clang accepts it; a strict compiler wants atomic_int).
__kernel void plain_cl(__global int *a) {
  a[0] = (int)get_group_id(0);
}
