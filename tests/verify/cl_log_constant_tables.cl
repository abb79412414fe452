//pass
//--local_size=64 --num_groups=4
// hand-derived: work-item i reads and writes only b[i]; libclc's log reads its __constant tables at 32 and at 64 bits, which made the solver reject the query (one function name for the table reads of both widths: exit 3 before)
__kernel void k(__global float *b) {
  int i = get_global_id(0);
  b[i] = log(b[i]);
}
