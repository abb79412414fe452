/* util.h: host helpers shared by the whole-program suite (tests/programs/): CUDA error
 * checks, command-line numbers, reading integer arrays and CSR graphs (.egr) from files,
 * and the PASS/FAIL verdict every program ends with. Host code only. */
#ifndef PROGS_UTIL_H
#define PROGS_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                                    \
  do {                                                                                      \
    cudaError_t err_ = (call);                                                              \
    if (err_ != cudaSuccess) {                                                              \
      fprintf(stderr, "CUDA error %d (%s) at %s:%d\n", (int)err_, cudaGetErrorString(err_), \
              __FILE__, __LINE__);                                                          \
      exit(2);                                                                              \
    }                                                                                       \
  } while (0)

/* After a launch: the launch's own error, then the kernel's. */
#define LAUNCH_CHECK()                         \
  do {                                         \
    CUDA_CHECK(cudaGetLastError());            \
    CUDA_CHECK(cudaDeviceSynchronize());       \
  } while (0)

static int arg_int(int argc, char **argv, int i, int dflt) {
  if (i >= argc) return dflt;
  char *end = NULL;
  long v = strtol(argv[i], &end, 10);
  if (end == argv[i] || *end != '\0' || v <= 0) {
    fprintf(stderr, "bad number '%s'\n", argv[i]);
    exit(2);
  }
  return (int)v;
}

/* A text file of whitespace-separated integers: the count, then the values. */
static int *read_ints(const char *path, int *n_out) {
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "cannot open %s\n", path);
    exit(2);
  }
  int n = 0;
  if (fscanf(f, "%d", &n) != 1 || n <= 0) {
    fprintf(stderr, "%s: bad count\n", path);
    exit(2);
  }
  int *a = (int *)malloc(sizeof(int) * (size_t)n);
  for (int i = 0; i < n; i++) {
    if (fscanf(f, "%d", &a[i]) != 1) {
      fprintf(stderr, "%s: only %d of %d values\n", path, i, n);
      exit(2);
    }
  }
  fclose(f);
  *n_out = n;
  return a;
}

/* A CSR graph. The .egr file (binary, little-endian 32-bit ints): nodes, edges,
 * nindex[nodes + 1], nlist[edges], then optionally eweight[edges]; without weights every
 * weight is 1. */
struct Graph {
  int nodes, edges;
  int *nindex, *nlist, *eweight;
};

static void read_exact(FILE *f, void *p, size_t n, const char *path) {
  if (fread(p, sizeof(int), n, f) != n) {
    fprintf(stderr, "%s: truncated graph file\n", path);
    exit(2);
  }
}

static Graph read_graph(const char *path) {
  Graph g;
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "cannot open %s\n", path);
    exit(2);
  }
  read_exact(f, &g.nodes, 1, path);
  read_exact(f, &g.edges, 1, path);
  if (g.nodes <= 0 || g.edges < 0) {
    fprintf(stderr, "%s: bad header\n", path);
    exit(2);
  }
  g.nindex = (int *)malloc(sizeof(int) * (size_t)(g.nodes + 1));
  g.nlist = (int *)malloc(sizeof(int) * (size_t)(g.edges + 1));
  g.eweight = (int *)malloc(sizeof(int) * (size_t)(g.edges + 1));
  read_exact(f, g.nindex, (size_t)g.nodes + 1, path);
  read_exact(f, g.nlist, (size_t)g.edges, path);
  if (fread(g.eweight, sizeof(int), (size_t)g.edges, f) != (size_t)g.edges)
    for (int e = 0; e < g.edges; e++) g.eweight[e] = 1;
  fclose(f);
  if (g.nindex[0] != 0 || g.nindex[g.nodes] != g.edges) {
    fprintf(stderr, "%s: bad CSR index\n", path);
    exit(2);
  }
  return g;
}

static int *to_device(const int *h, int n) {
  int *d = NULL;
  CUDA_CHECK(cudaMalloc((void **)&d, sizeof(int) * (size_t)(n > 0 ? n : 1)));
  if (n > 0) CUDA_CHECK(cudaMemcpy(d, h, sizeof(int) * (size_t)n, cudaMemcpyHostToDevice));
  return d;
}

/* The verdict: PASS (exit 0) or FAIL with the first mismatch (exit 1). */
static int verdict_ints(const char *what, const int *got, const int *want, int n) {
  for (int i = 0; i < n; i++) {
    if (got[i] != want[i]) {
      printf("FAIL: %s[%d] = %d, expected %d\n", what, i, got[i], want[i]);
      return 1;
    }
  }
  printf("PASS: %s (%d values)\n", what, n);
  return 0;
}

#endif
