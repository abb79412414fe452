//not_checked
//--local_size=[8,8] --num_groups=[8,8]
// hand-derived: every work-item of a row writes pixel (0, y) of dest (a write-write race GPUVerify reports, its imagetests/fail2dimagecopy); weft does not model image writes, so it must say "not checked", never "verified"
__kernel void k(__write_only image2d_t dest, __global float4 *src) {
  write_imagef(dest, (int2)(0, get_global_id(1)), src[get_global_id(0)]);
}
