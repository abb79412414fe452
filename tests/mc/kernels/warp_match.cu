//--blockDim=4 --gridDim=1
// __match_any_sync / __match_all_sync (match.sync, issue 13) over a 4-lane warp: lanes with
// equal t/2 (lanes 0,1 and lanes 2,3) find each other; every lane has t & 4 == 0, so
// match.all gives the whole mask and a true predicate; the lanes' own indices all differ, so
// match.all on them gives 0 and false. -DWRONG asserts that every lane matches all four
// (false for match.any on t/2).
#include <weft_cuda.h>
__global__ void warp_match(int *out) {
  int t = (int)threadIdx.x;
  unsigned a = __match_any_sync(0xfu, t / 2);
  int p, q;
  unsigned b = __match_all_sync(0xfu, t & 4, &p);
  unsigned c = __match_all_sync(0xfu, t, &q);
#ifdef WRONG
  __assert(a == 0xfu);
#else
  __assert(a == (t < 2 ? 0x3u : 0xcu));
#endif
  __assert(b == 0xfu && p == 1);
  __assert(c == 0u && q == 0);
  out[t] = (int)a;
}
