// cc.cu: connected components by label propagation over a symmetric CSR graph (.egr):
// every vertex starts with its own number; push style, each vertex lowers its neighbours'
// labels in `nlabel` with atomicMin (double-buffered like bfs.cu) until nothing changes.
// Usage: cc GRAPH.egr [threads_per_block [num_blocks]]; checks the labels (the smallest
// vertex of each component) against a CPU union-find.
// Variants (-D): MISSING_ATOMIC (test-and-store instead of atomicMin), OOB_INDEX (the
// neighbour loop runs to `e <= nindex[v + 1]`), PULL (each vertex takes the minimum of its
// neighbours' labels into its own slot: no atomics needed, race-free).
#include "../common/util.h"

__global__ void cc_step(int n, const int *nindex, const int *nlist, const int *label,
                        int *nlabel, int *changed) {
  for (int v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += gridDim.x * blockDim.x) {
    int lv = label[v];
#ifdef PULL
    int best = lv;
    for (int e = nindex[v]; e < nindex[v + 1]; e++) {
      int lu = label[nlist[e]];
      if (lu < best) best = lu;
    }
    if (best < lv) {
      nlabel[v] = best; // @PULL
      atomicExch(changed, 1);
    }
#else
#ifdef OOB_INDEX
    for (int e = nindex[v]; e <= nindex[v + 1]; e++) {
#else
    for (int e = nindex[v]; e < nindex[v + 1]; e++) {
#endif
      int u = nlist[e]; // @NBR
#ifdef MISSING_ATOMIC
      if (lv < nlabel[u]) { nlabel[u] = lv; atomicExch(changed, 1); } // @PUSH_PLAIN
#else
      if (atomicMin(&nlabel[u], lv) > lv) // @PUSH
        atomicExch(changed, 1);
#endif
    }
#endif
  }
}

__global__ void cc_commit(int n, int *label, const int *nlabel) {
  for (int v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += gridDim.x * blockDim.x)
    label[v] = nlabel[v];
}

static int find(int *p, int x) {
  while (p[x] != x) x = p[x] = p[p[x]];
  return x;
}

static void cc_cpu(const Graph &g, int *label) {
  for (int v = 0; v < g.nodes; v++) label[v] = v;
  for (int v = 0; v < g.nodes; v++)
    for (int e = g.nindex[v]; e < g.nindex[v + 1]; e++) {
      int a = find(label, v), b = find(label, g.nlist[e]);
      if (a < b) label[b] = a; else label[a] = b;
    }
  for (int v = 0; v < g.nodes; v++) label[v] = find(label, v);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s GRAPH.egr [threads_per_block [num_blocks]]\n", argv[0]);
    return 2;
  }
  Graph g = read_graph(argv[1]);
  int tpb = arg_int(argc, argv, 2, 64), blocks = arg_int(argc, argv, 3, 2);
  int n = g.nodes;
  int *h = (int *)malloc(sizeof(int) * n);
  for (int v = 0; v < n; v++) h[v] = v;
  int *d_nindex = to_device(g.nindex, n + 1), *d_nlist = to_device(g.nlist, g.edges);
  int *d_label = to_device(h, n), *d_nlabel = to_device(h, n);
  int *d_changed;
  CUDA_CHECK(cudaMalloc((void **)&d_changed, sizeof(int)));
  int rounds = 0;
  for (int changed = 1; changed; rounds++) {
    changed = 0;
    CUDA_CHECK(cudaMemcpy(d_changed, &changed, sizeof(int), cudaMemcpyHostToDevice));
    cc_step<<<blocks, tpb>>>(n, d_nindex, d_nlist, d_label, d_nlabel, d_changed);
    LAUNCH_CHECK();
    cc_commit<<<blocks, tpb>>>(n, d_label, d_nlabel);
    LAUNCH_CHECK();
    CUDA_CHECK(cudaMemcpy(&changed, d_changed, sizeof(int), cudaMemcpyDeviceToHost));
  }
  int *want = (int *)malloc(sizeof(int) * n);
  CUDA_CHECK(cudaMemcpy(h, d_label, sizeof(int) * n, cudaMemcpyDeviceToHost));
  cc_cpu(g, want);
  int rc = verdict_ints("label", h, want, n);
  printf("rounds: %d\n", rounds);
  CUDA_CHECK(cudaFree(d_nindex));
  CUDA_CHECK(cudaFree(d_nlist));
  CUDA_CHECK(cudaFree(d_label));
  CUDA_CHECK(cudaFree(d_nlabel));
  CUDA_CHECK(cudaFree(d_changed));
  free(h);
  free(want);
  return rc;
}
