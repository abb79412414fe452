// A graph program in the style of planted-bug suites: reads a CSR graph from a file given
// on the command line (first line "nodes edges", then edges "u v"), then BFS levels from
// node 0 with one thread per node, level by level, until no node changes. The CPU reference
// computes the same levels; the program prints "levels match" or the first mismatch.
// Arguments: GRAPH [threads_per_block num_blocks]. With -DPLANTED the frontier flag is
// written by every thread without a guard (a benign-looking write-write race).
#include <cstdio>
#include <cstdlib>
#include <vector>

__global__ void bfs_step(const int *row, const int *col, int *level, int n, int depth, int *changed) {
  int stride = blockDim.x * gridDim.x;
  for (int v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += stride) {
    if (atomicAdd(&level[v], 0) != depth) continue; // an atomic read: level[] is CAS'd concurrently
    for (int e = row[v]; e < row[v + 1]; e++) {
      int w = col[e];
      if (atomicCAS(&level[w], -1, depth + 1) == -1) {
#ifdef PLANTED
        changed[0] = changed[0] + 1; // @planted
#else
        atomicAdd(changed, 1);
#endif
      }
    }
  }
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s GRAPH [threads_per_block num_blocks]\n", argv[0]);
    return 2;
  }
  int tpb = argc > 2 ? atoi(argv[2]) : 256, nb = argc > 3 ? atoi(argv[3]) : 4;
  FILE *f = fopen(argv[1], "r");
  if (!f) {
    perror(argv[1]);
    return 2;
  }
  int n, m;
  if (fscanf(f, "%d %d", &n, &m) != 2) return 2;
  std::vector<int> us(m), vs(m), row(n + 1, 0), col(2 * m);
  for (int i = 0; i < m; i++) {
    if (fscanf(f, "%d %d", &us[i], &vs[i]) != 2) return 2;
    row[us[i] + 1]++;
    row[vs[i] + 1]++;
  }
  fclose(f);
  for (int i = 0; i < n; i++) row[i + 1] += row[i];
  std::vector<int> fill(row.begin(), row.end() - 1);
  for (int i = 0; i < m; i++) {
    col[fill[us[i]]++] = vs[i];
    col[fill[vs[i]]++] = us[i];
  }
  int *drow, *dcol, *dlevel, *dchanged;
  cudaMalloc(&drow, (n + 1) * sizeof(int));
  cudaMalloc(&dcol, 2 * m * sizeof(int));
  cudaMalloc(&dlevel, n * sizeof(int));
  cudaMalloc(&dchanged, sizeof(int));
  cudaMemcpy(drow, row.data(), (n + 1) * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(dcol, col.data(), 2 * m * sizeof(int), cudaMemcpyHostToDevice);
  std::vector<int> level(n, -1);
  level[0] = 0;
  cudaMemcpy(dlevel, level.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  int changed = 1, depth = 0;
  while (changed) {
    cudaMemset(dchanged, 0, sizeof(int));
    bfs_step<<<nb, tpb>>>(drow, dcol, dlevel, n, depth, dchanged);
    cudaMemcpy(&changed, dchanged, sizeof(int), cudaMemcpyDeviceToHost);
    depth++;
  }
  std::vector<int> got(n);
  cudaMemcpy(got.data(), dlevel, n * sizeof(int), cudaMemcpyDeviceToHost);
  // CPU reference: BFS with a queue.
  std::vector<int> ref(n, -1), q;
  ref[0] = 0;
  q.push_back(0);
  for (size_t h = 0; h < q.size(); h++)
    for (int e = row[q[h]]; e < row[q[h] + 1]; e++)
      if (ref[col[e]] < 0) {
        ref[col[e]] = ref[q[h]] + 1;
        q.push_back(col[e]);
      }
  for (int i = 0; i < n; i++)
    if (ref[i] != got[i]) {
      printf("mismatch at node %d: %d vs %d\n", i, got[i], ref[i]);
      return 1;
    }
  printf("levels match (%d nodes, %d edges, %d rounds)\n", n, m, depth);
  cudaFree(drow);
  cudaFree(dcol);
  cudaFree(dlevel);
  cudaFree(dchanged);
  return 0;
}
