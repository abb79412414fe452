// Two blocks of one thread each add to one balance under a spin lock. Block 1 takes the
// lock correctly (CAS, then __threadfence: an acquire); block 0 forgets the fence after
// its CAS (@nofence), so its update is not ordered after the previous holder's. Both
// release with __threadfence and an atomic (block 1 with atomicCAS, which also keeps
// clang from merging the two branches' updates into one load and store). The race (on
// the balance, lines @update0 and @update1) exists only in executions where block 1 takes
// the lock *first*: its release is then read by block 0's fenceless CAS, which is no
// acquire, so nothing orders block 0's accesses after block 1's. When block 0 goes first,
// block 1's acquire reads block 0's release and orders everything. Round-robin, the
// emulator's first schedule, always starts block 0, so one run of it shows no race;
// `weft race`'s default also checks a launch this small under seeded schedules, on a copy
// of device memory. The program prints each block's deposit from the device and the
// final balance (3 in every order), once.
#include <cstdio>

__device__ int lock = 0;

__global__ void deposit(int *balance) {
  if (blockIdx.x == 0) {
    while (atomicCAS(&lock, 0, 1) != 0) { // @nofence
    }
    *balance = *balance + 1; // @update0
    __threadfence();
    atomicExch(&lock, 0);
  } else {
    while (atomicCAS(&lock, 0, 1) != 0) {
    }
    __threadfence();
    *balance = *balance + 2; // @update1
    __threadfence();
    atomicCAS(&lock, 1, 0);
  }
  printf("block %d deposited\n", blockIdx.x);
}

int main() {
  int *balance, h = 0;
  cudaMalloc(&balance, sizeof(int));
  cudaMemset(balance, 0, sizeof(int));
  deposit<<<2, 1>>>(balance);
  cudaMemcpy(&h, balance, sizeof(int), cudaMemcpyDeviceToHost);
  printf("balance %d\n", h);
  cudaFree(balance);
  return 0;
}
