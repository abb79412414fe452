/* weft_cuda_runtime.h: the CUDA runtime API of the host side of a .cu program, as weft's
 * runtime (crates/weft-cudart) implements it. Included by weft_cuda.h. Error codes, memcpy
 * kinds and flag values have CUDA's numbers; cudaDeviceProp holds the fields programs read
 * (weft's own layout: a program compiled against this header is linked with weft's runtime).
 */
#ifndef WEFT_CUDA_RUNTIME_H
#define WEFT_CUDA_RUNTIME_H
#include <stddef.h>

typedef enum cudaError {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3,
  cudaErrorCudartUnloading = 4,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidSymbol = 13,
  cudaErrorInvalidDevicePointer = 17,
  cudaErrorInvalidMemcpyDirection = 21,
  cudaErrorMissingConfiguration = 52,
  cudaErrorInvalidDeviceFunction = 98,
  cudaErrorNoDevice = 100,
  cudaErrorInvalidDevice = 101,
  cudaErrorInvalidKernelImage = 200,
  cudaErrorInvalidResourceHandle = 400,
  cudaErrorNotReady = 600,
  cudaErrorIllegalAddress = 700,
  cudaErrorLaunchOutOfResources = 701,
  cudaErrorLaunchTimeout = 702,
  cudaErrorAssert = 710,
  cudaErrorMisalignedAddress = 716,
  cudaErrorLaunchFailure = 719,
  cudaErrorNotSupported = 801,
  cudaErrorUnknown = 999
} cudaError_t;

enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4
};
enum cudaFuncCache {
  cudaFuncCachePreferNone = 0,
  cudaFuncCachePreferShared = 1,
  cudaFuncCachePreferL1 = 2,
  cudaFuncCachePreferEqual = 3
};
enum cudaSharedMemConfig {
  cudaSharedMemBankSizeDefault = 0,
  cudaSharedMemBankSizeFourByte = 1,
  cudaSharedMemBankSizeEightByte = 2
};
enum cudaLimit { cudaLimitStackSize = 0, cudaLimitPrintfFifoSize = 1, cudaLimitMallocHeapSize = 2 };
enum cudaFuncAttribute { cudaFuncAttributeMaxDynamicSharedMemorySize = 8 };
enum cudaDeviceAttr {
  cudaDevAttrMaxThreadsPerBlock = 1,
  cudaDevAttrMaxBlockDimX = 2,
  cudaDevAttrMaxGridDimX = 5,
  cudaDevAttrMaxSharedMemoryPerBlock = 8,
  cudaDevAttrWarpSize = 10,
  cudaDevAttrMultiProcessorCount = 16,
  cudaDevAttrComputeCapabilityMajor = 75,
  cudaDevAttrComputeCapabilityMinor = 76
};
#define cudaMemAttachGlobal 0x01
#define cudaMemAttachHost 0x02
#define cudaHostAllocDefault 0x00
#define cudaHostAllocPortable 0x01
#define cudaHostAllocMapped 0x02
#define cudaHostAllocWriteCombined 0x04
#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02
#define cudaDeviceScheduleAuto 0x00
#define cudaDeviceMapHost 0x08

typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;

struct cudaDeviceProp {
  char name[256];
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  size_t memPitch;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  int clockRate;
  size_t totalConstMem;
  int major;
  int minor;
  int multiProcessorCount;
  int maxThreadsPerMultiProcessor;
  size_t sharedMemPerMultiprocessor;
  int memoryClockRate;
  int memoryBusWidth;
  int l2CacheSize;
  int concurrentKernels;
  int managedMemory;
  int unifiedAddressing;
  int canMapHostMemory;
  int computeMode;
  int integrated;
  int deviceOverlap;
  int asyncEngineCount;
  int ECCEnabled;
  size_t sharedMemPerBlockOptin;
};
typedef struct cudaDeviceProp cudaDeviceProp;

#ifdef __cplusplus
#define WEFT_DEFAULT(x) = x
extern "C" {
#else
#define WEFT_DEFAULT(x)
#endif
#ifndef __host__
#define __host__
#endif
/* memory */
__host__ cudaError_t cudaMalloc(void **p, size_t n);
__host__ cudaError_t cudaMallocManaged(void **p, size_t n, unsigned flags WEFT_DEFAULT(1));
__host__ cudaError_t cudaMallocHost(void **p, size_t n);
__host__ cudaError_t cudaHostAlloc(void **p, size_t n, unsigned flags);
__host__ cudaError_t cudaFree(void *p);
__host__ cudaError_t cudaFreeHost(void *p);
__host__ cudaError_t cudaMemcpy(void *d, const void *s, size_t n, enum cudaMemcpyKind k);
__host__ cudaError_t cudaMemcpyAsync(void *d, const void *s, size_t n, enum cudaMemcpyKind k,
                                     cudaStream_t st WEFT_DEFAULT(0));
__host__ cudaError_t cudaMemset(void *d, int v, size_t n);
__host__ cudaError_t cudaMemsetAsync(void *d, int v, size_t n, cudaStream_t st WEFT_DEFAULT(0));
__host__ cudaError_t cudaMemcpyToSymbol(const void *sym, const void *s, size_t n,
                                        size_t off WEFT_DEFAULT(0),
                                        enum cudaMemcpyKind k WEFT_DEFAULT(cudaMemcpyHostToDevice));
__host__ cudaError_t cudaMemcpyFromSymbol(void *d, const void *sym, size_t n,
                                          size_t off WEFT_DEFAULT(0),
                                          enum cudaMemcpyKind k WEFT_DEFAULT(cudaMemcpyDeviceToHost));
__host__ cudaError_t cudaMemcpyToSymbolAsync(const void *sym, const void *s, size_t n, size_t off,
                                             enum cudaMemcpyKind k,
                                             cudaStream_t st WEFT_DEFAULT(0));
__host__ cudaError_t cudaMemcpyFromSymbolAsync(void *d, const void *sym, size_t n, size_t off,
                                               enum cudaMemcpyKind k,
                                               cudaStream_t st WEFT_DEFAULT(0));
__host__ cudaError_t cudaGetSymbolAddress(void **p, const void *sym);
__host__ cudaError_t cudaGetSymbolSize(size_t *n, const void *sym);
__host__ cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total);
__host__ cudaError_t cudaMemPrefetchAsync(const void *p, size_t n, int dev,
                                          cudaStream_t st WEFT_DEFAULT(0));
/* not implemented by weft (a call stops the program with exit code 3) */
__host__ cudaError_t cudaMallocPitch(void **p, size_t *pitch, size_t w, size_t h);
__host__ cudaError_t cudaMemcpy2D(void *d, size_t dp, const void *s, size_t sp, size_t w, size_t h,
                                  enum cudaMemcpyKind k);
__host__ cudaError_t cudaHostGetDevicePointer(void **d, void *h, unsigned flags);
__host__ cudaError_t cudaMemcpyPeer(void *d, int dd, const void *s, int sd, size_t n);
/* device */
__host__ cudaError_t cudaGetDeviceCount(int *n);
__host__ cudaError_t cudaSetDevice(int d);
__host__ cudaError_t cudaGetDevice(int *d);
__host__ cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *p, int d);
__host__ cudaError_t cudaDeviceGetAttribute(int *v, enum cudaDeviceAttr a, int d);
__host__ cudaError_t cudaDeviceSynchronize(void);
__host__ cudaError_t cudaThreadSynchronize(void);
__host__ cudaError_t cudaDeviceReset(void);
__host__ cudaError_t cudaSetDeviceFlags(unsigned flags);
__host__ cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache c);
__host__ cudaError_t cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig c);
__host__ cudaError_t cudaDeviceSetLimit(enum cudaLimit l, size_t v);
__host__ cudaError_t cudaFuncSetCacheConfig(const void *f, enum cudaFuncCache c);
__host__ cudaError_t cudaFuncSetSharedMemConfig(const void *f, enum cudaSharedMemConfig c);
__host__ cudaError_t cudaFuncSetAttribute(const void *f, enum cudaFuncAttribute a, int v);
__host__ cudaError_t cudaRuntimeGetVersion(int *v);
__host__ cudaError_t cudaDriverGetVersion(int *v);
/* errors */
__host__ cudaError_t cudaGetLastError(void);
__host__ cudaError_t cudaPeekAtLastError(void);
__host__ const char *cudaGetErrorString(cudaError_t e);
__host__ const char *cudaGetErrorName(cudaError_t e);
/* streams and events (executed in order) */
__host__ cudaError_t cudaStreamCreate(cudaStream_t *s);
__host__ cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned flags);
__host__ cudaError_t cudaStreamDestroy(cudaStream_t s);
__host__ cudaError_t cudaStreamSynchronize(cudaStream_t s);
__host__ cudaError_t cudaStreamQuery(cudaStream_t s);
__host__ cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned flags WEFT_DEFAULT(0));
__host__ cudaError_t cudaEventCreate(cudaEvent_t *e);
__host__ cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned flags);
__host__ cudaError_t cudaEventDestroy(cudaEvent_t e);
__host__ cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s WEFT_DEFAULT(0));
__host__ cudaError_t cudaEventSynchronize(cudaEvent_t e);
__host__ cudaError_t cudaEventQuery(cudaEvent_t e);
__host__ cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b);
/* launches: clang emits the first three (CUDA >= 9.2) or the next three (older) for <<<>>> */
__host__ unsigned __cudaPushCallConfiguration(dim3 g, dim3 b, size_t shmem WEFT_DEFAULT(0),
                                              cudaStream_t s WEFT_DEFAULT(0));
__host__ cudaError_t __cudaPopCallConfiguration(dim3 *g, dim3 *b, size_t *shmem, void *s);
__host__ cudaError_t cudaLaunchKernel(const void *f, dim3 g, dim3 b, void **args,
                                      size_t shmem WEFT_DEFAULT(0), cudaStream_t s WEFT_DEFAULT(0));
__host__ cudaError_t cudaConfigureCall(dim3 g, dim3 b, size_t shmem WEFT_DEFAULT(0),
                                       cudaStream_t s WEFT_DEFAULT(0));
__host__ cudaError_t cudaSetupArgument(const void *arg, size_t size, size_t offset);
__host__ cudaError_t cudaLaunch(const void *f);
__host__ cudaError_t cudaLaunchCooperativeKernel(const void *f, dim3 g, dim3 b, void **args,
                                                 size_t shmem WEFT_DEFAULT(0),
                                                 cudaStream_t s WEFT_DEFAULT(0));
#ifdef __cplusplus
}
#undef WEFT_DEFAULT
template <class T> static __host__ cudaError_t cudaMalloc(T **p, size_t n) {
  return cudaMalloc((void **)p, n);
}
template <class T>
static __host__ cudaError_t cudaMallocManaged(T **p, size_t n, unsigned flags = cudaMemAttachGlobal) {
  return cudaMallocManaged((void **)p, n, flags);
}
template <class T> static __host__ cudaError_t cudaMallocHost(T **p, size_t n) {
  return cudaMallocHost((void **)p, n);
}
template <class T> static __host__ cudaError_t cudaHostAlloc(T **p, size_t n, unsigned flags) {
  return cudaHostAlloc((void **)p, n, flags);
}
template <class T>
static __host__ cudaError_t cudaMemcpyToSymbol(const T &sym, const void *s, size_t n,
                                               size_t off = 0,
                                               enum cudaMemcpyKind k = cudaMemcpyHostToDevice) {
  return cudaMemcpyToSymbol((const void *)&sym, s, n, off, k);
}
template <class T>
static __host__ cudaError_t cudaMemcpyFromSymbol(void *d, const T &sym, size_t n, size_t off = 0,
                                                 enum cudaMemcpyKind k = cudaMemcpyDeviceToHost) {
  return cudaMemcpyFromSymbol(d, (const void *)&sym, n, off, k);
}
template <class T>
static __host__ cudaError_t cudaMemcpyToSymbolAsync(const T &sym, const void *s, size_t n,
                                                    size_t off = 0,
                                                    enum cudaMemcpyKind k = cudaMemcpyHostToDevice,
                                                    cudaStream_t st = 0) {
  return cudaMemcpyToSymbolAsync((const void *)&sym, s, n, off, k, st);
}
template <class T>
static __host__ cudaError_t cudaMemcpyFromSymbolAsync(void *d, const T &sym, size_t n,
                                                      size_t off = 0,
                                                      enum cudaMemcpyKind k = cudaMemcpyDeviceToHost,
                                                      cudaStream_t st = 0) {
  return cudaMemcpyFromSymbolAsync(d, (const void *)&sym, n, off, k, st);
}
template <class T> static __host__ cudaError_t cudaGetSymbolAddress(void **p, const T &sym) {
  return cudaGetSymbolAddress(p, (const void *)&sym);
}
template <class T> static __host__ cudaError_t cudaGetSymbolSize(size_t *n, const T &sym) {
  return cudaGetSymbolSize(n, (const void *)&sym);
}
template <class T>
static __host__ cudaError_t cudaFuncSetCacheConfig(T *f, enum cudaFuncCache c) {
  return cudaFuncSetCacheConfig((const void *)f, c);
}
template <class T>
static __host__ cudaError_t cudaFuncSetAttribute(T *f, enum cudaFuncAttribute a, int v) {
  return cudaFuncSetAttribute((const void *)f, a, v);
}
template <class T>
static __host__ cudaError_t cudaLaunchKernel(T *f, dim3 g, dim3 b, void **args, size_t shmem = 0,
                                             cudaStream_t s = 0) {
  return cudaLaunchKernel((const void *)f, g, b, args, shmem, s);
}
#endif
/* __managed__ variables (weft_cuda.h): the bounds of the section that holds their host
   shadows, given to the runtime before clang's module constructors register the variables
   (priority 101 runs before them). */
#if defined(__cplusplus) && defined(WEFT_CUDA_HOST_SIDE)
extern "C" char __start_weft_managed[] __attribute__((weak, visibility("hidden")));
extern "C" char __stop_weft_managed[] __attribute__((weak, visibility("hidden")));
extern "C" void __weftRegisterManagedSection(void *start, void *end);
static __attribute__((constructor(101), used)) void __weft_managed_section(void) {
  if (__start_weft_managed != __stop_weft_managed)
    __weftRegisterManagedSection(__start_weft_managed, __stop_weft_managed);
}
#endif
#endif
