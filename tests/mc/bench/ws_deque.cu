//--blockDim=1 --gridDim=2
// Work-stealing deque of Cederman and Tsigas (paper 000 §3, Fig. 6 and the dlb-mp test): the
// deque's head and tail are volatile (relaxed device-scope accesses here). Block 0 owns the
// deque and pushes a task (writes tasks[tail], then increments tail); block 1 steals: if it
// sees tail > head it reads tasks[head] and claims it with a CAS on head. Without fences the
// thief can see the new tail and still read the stale (empty, 0) task slot: the assertion
// that a stolen task is never empty fails. -DFIXED adds paper 000's fences (Fig. 6 lines 4,
// 9, 11): the stale read is then impossible.
#include <weft_cuda.h>
#include <weft_gpuverify.h>
__device__ void push(int *tasks, int *tail, int task) {
  int t = weft_ld_relaxed_gpu(tail);
  weft_st_relaxed_gpu(&tasks[t], task);
#ifdef FIXED
  __threadfence();
#endif
  weft_st_relaxed_gpu(tail, t + 1);
}
__device__ int steal(int *tasks, int *head, int *tail) {
  int old_head = weft_ld_relaxed_gpu(head);
  if (weft_ld_relaxed_gpu(tail) <= old_head) {
    return -1;
  }
#ifdef FIXED
  __threadfence();
#endif
  int task = weft_ld_relaxed_gpu(&tasks[old_head]);
#ifdef FIXED
  __threadfence();
#endif
  if (atomicCAS(head, old_head, old_head + 1) == old_head) {
    return task;
  }
  return -2;
}
__global__ void deque(int *tasks, int *head, int *tail, int *got) {
  if (blockIdx.x == 0) {
    push(tasks, tail, 7);
  } else {
    int task = steal(tasks, head, tail);
    __assert(task != 0);
    *got = task;
  }
}
