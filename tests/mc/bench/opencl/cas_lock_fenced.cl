//--local_size=1 --num_groups=2
// CAS lock with fences (paper 000 §3, cas-sl fixed): cas_lock_nofence.cl with -DFIXED.
#define FIXED
#include "cas_lock_nofence.cl"
