/* weft_cuda_math.h: device helpers that real CUDA samples take from the toolkit's headers,
 * included by weft_cuda.h (device side):
 *  - texture fetches (texture references and `cudaTextureObject_t`, every dimensionality and
 *    read mode): the host binds a texture's contents, so a fetch yields an arbitrary value
 *    of the fetch's type (each bit free), never a memory access;
 *  - `__sincosf` / `sincosf` / `sincos`, `atanf`, `atan2f`, `asinf`, `acosf` (and double),
 *    math_constants.h's `CUDART_PI_F` and a few others;
 *  - the element-wise vector operators and helpers of the CUDA samples' helper_math.h
 *    (`float4 + float4`, `float3 * float`, `make_float4(s)`, `dot`, `length`, ...).
 * The vector helpers are templates restricted to the vector types, so that a program's own
 * non-template definitions (its copy of helper_math.h) are preferred over them and never
 * clash with them. */
#ifndef WEFT_CUDA_MATH_H
#define WEFT_CUDA_MATH_H

/* ---- textures ------------------------------------------------------------------------- */
extern "C" __device__ double __weft_query_havoc(void);
/* An arbitrary value of type T: every 8 bytes from one havoc query (its bits, not its
 * conversion: a double converted to an integer out of range is undefined). */
template <class T> static __device__ __forceinline__ T __weft_havoc_value(void) {
  union {
    T v;
    unsigned long long w[(sizeof(T) + 7) / 8];
  } u;
  for (unsigned i = 0; i < (sizeof(T) + 7) / 8; i++)
    u.w[i] = __builtin_bit_cast(unsigned long long, __weft_query_havoc());
  return u.v;
}
enum cudaTextureReadMode { cudaReadModeElementType = 0, cudaReadModeNormalizedFloat = 1 };
#define cudaTextureType1D 0x01
#define cudaTextureType2D 0x02
#define cudaTextureType3D 0x03
#define cudaTextureTypeCubemap 0x0C
#define cudaTextureType1DLayered 0xF1
#define cudaTextureType2DLayered 0xF2
#define cudaTextureTypeCubemapLayered 0xFC
template <class T, int Dim = 1, enum cudaTextureReadMode Mode = cudaReadModeElementType>
struct __attribute__((device_builtin_texture_type)) texture {
  int normalized;
};
typedef unsigned long long cudaTextureObject_t;
typedef unsigned long long cudaSurfaceObject_t;
/* The type a fetch returns: the element type, or with cudaReadModeNormalizedFloat the float
 * type of as many components (8- and 16-bit integers are read as normalised floats). */
template <class T, int M> struct __weft_tex_ret { typedef T type; };
#define WEFT_TEX_NORM(T, F)                                                                    \
  template <> struct __weft_tex_ret<T, cudaReadModeNormalizedFloat> { typedef F type; };
WEFT_TEX_NORM(char, float)
WEFT_TEX_NORM(signed char, float)
WEFT_TEX_NORM(unsigned char, float)
WEFT_TEX_NORM(short, float)
WEFT_TEX_NORM(unsigned short, float)
WEFT_TEX_NORM(char1, float1)
WEFT_TEX_NORM(uchar1, float1)
WEFT_TEX_NORM(short1, float1)
WEFT_TEX_NORM(ushort1, float1)
WEFT_TEX_NORM(char2, float2)
WEFT_TEX_NORM(uchar2, float2)
WEFT_TEX_NORM(short2, float2)
WEFT_TEX_NORM(ushort2, float2)
WEFT_TEX_NORM(char4, float4)
WEFT_TEX_NORM(uchar4, float4)
WEFT_TEX_NORM(short4, float4)
WEFT_TEX_NORM(ushort4, float4)
#undef WEFT_TEX_NORM
#define WEFT_TEX_REF(NAME, ARGS)                                                               \
  template <class T, int D, enum cudaTextureReadMode M>                                        \
  static __device__ __forceinline__ typename __weft_tex_ret<T, M>::type NAME(                  \
      texture<T, D, M> t, ARGS) {                                                              \
    return __weft_havoc_value<typename __weft_tex_ret<T, M>::type>();                          \
  }
#define WEFT_TEX_OBJ(NAME, ARGS)                                                               \
  template <class T> static __device__ __forceinline__ T NAME(cudaTextureObject_t t, ARGS) {  \
    return __weft_havoc_value<T>();                                                            \
  }
#define WEFT_COMMA ,
WEFT_TEX_REF(tex1Dfetch, int x)
WEFT_TEX_REF(tex1D, float x)
WEFT_TEX_REF(tex2D, float x WEFT_COMMA float y)
WEFT_TEX_REF(tex3D, float x WEFT_COMMA float y WEFT_COMMA float z)
WEFT_TEX_REF(tex1DLayered, float x WEFT_COMMA int layer)
WEFT_TEX_REF(tex2DLayered, float x WEFT_COMMA float y WEFT_COMMA int layer)
WEFT_TEX_REF(texCubemap, float x WEFT_COMMA float y WEFT_COMMA float z)
WEFT_TEX_REF(tex1DLod, float x WEFT_COMMA float level)
WEFT_TEX_REF(tex2DLod, float x WEFT_COMMA float y WEFT_COMMA float level)
WEFT_TEX_REF(tex3DLod, float x WEFT_COMMA float y WEFT_COMMA float z WEFT_COMMA float level)
WEFT_TEX_OBJ(tex1Dfetch, int x)
WEFT_TEX_OBJ(tex1D, float x)
WEFT_TEX_OBJ(tex2D, float x WEFT_COMMA float y)
WEFT_TEX_OBJ(tex3D, float x WEFT_COMMA float y WEFT_COMMA float z)
WEFT_TEX_OBJ(tex1DLayered, float x WEFT_COMMA int layer)
WEFT_TEX_OBJ(tex2DLayered, float x WEFT_COMMA float y WEFT_COMMA int layer)
WEFT_TEX_OBJ(texCubemap, float x WEFT_COMMA float y WEFT_COMMA float z)
WEFT_TEX_OBJ(tex1DLod, float x WEFT_COMMA float level)
WEFT_TEX_OBJ(tex2DLod, float x WEFT_COMMA float y WEFT_COMMA float level)
WEFT_TEX_OBJ(tex3DLod, float x WEFT_COMMA float y WEFT_COMMA float z WEFT_COMMA float level)
#undef WEFT_TEX_REF
#undef WEFT_TEX_OBJ
#undef WEFT_COMMA

/* ---- sine and cosine at once ---------------------------------------------------------- */
static __device__ __forceinline__ void __sincosf(float x, float *s, float *c) {
  *s = __sinf(x);
  *c = __cosf(x);
}
static __device__ __forceinline__ void sincosf(float x, float *s, float *c) {
  *s = sinf(x);
  *c = cosf(x);
}
static __device__ __forceinline__ void sincos(double x, double *s, double *c) {
  *s = sin(x);
  *c = cos(x);
}

/* The toolkit's math_constants.h constants that samples use without including it. */
#ifndef CUDART_PI_F
#define CUDART_PI_F 3.141592654f
#define CUDART_PI 3.1415926535897931e+0
#define CUDART_PIO2_F 1.570796327f
#define CUDART_INF_F __int_as_float(0x7f800000)
#define CUDART_NAN_F __int_as_float(0x7fffffff)
#endif

/* Inverse trigonometric functions (the toolkit's math.h): atan by two argument halvings,
 * atan(a) = 2 atan(a / (1 + sqrt(1 + a^2))), which bring |a| <= 1 under tan(pi/16), then its
 * series to a^9 (error under 2e-9 there); atan2, asin and acos from atan. */
static __device__ __forceinline__ float atanf(float x) {
  float a = fabsf(x);
  bool inv = a > 1.0f;
  if (inv)
    a = 1.0f / a;
  a = a / (1.0f + sqrtf(1.0f + a * a));
  a = a / (1.0f + sqrtf(1.0f + a * a));
  float a2 = a * a;
  float r = 4.0f * a *
            (1.0f - a2 * (1.0f / 3.0f - a2 * (1.0f / 5.0f - a2 * (1.0f / 7.0f - a2 / 9.0f))));
  if (inv)
    r = 1.57079632679f - r;
  return x < 0.0f ? -r : r;
}
static __device__ __forceinline__ float atan2f(float y, float x) {
  if (x > 0.0f)
    return atanf(y / x);
  if (x < 0.0f)
    return atanf(y / x) + (y >= 0.0f ? 3.14159265359f : -3.14159265359f);
  return y > 0.0f ? 1.57079632679f : (y < 0.0f ? -1.57079632679f : 0.0f);
}
static __device__ __forceinline__ float asinf(float x) { return atan2f(x, sqrtf(1.0f - x * x)); }
static __device__ __forceinline__ float acosf(float x) { return atan2f(sqrtf(1.0f - x * x), x); }
static __device__ __forceinline__ double atan(double x) { return atanf((float)x); }
static __device__ __forceinline__ double atan2(double y, double x) {
  return atan2f((float)y, (float)x);
}
static __device__ __forceinline__ double asin(double x) { return asinf((float)x); }
static __device__ __forceinline__ double acos(double x) { return acosf((float)x); }

/* tanhf through expf (PTX ex2.approx): 1 - 2 / (e^2x + 1). */
static __device__ __forceinline__ float tanhf(float x) { return 1.0f - 2.0f / (expf(2.0f * x) + 1.0f); }

/* The shuffles before CUDA 9 (`__shfl_up(v, d)`...): the whole warp takes part (full mask).
 * Templates, so that a program's own definitions win. */
#define WEFT_SHFL_OLD(NAME, SYNC)                                                              \
  template <class T>                                                                           \
  static __device__ __forceinline__ T NAME(T v, int b, int width = warpSize) {                 \
    return SYNC(0xffffffffu, v, b, width);                                                     \
  }
WEFT_SHFL_OLD(__shfl, __shfl_sync)
WEFT_SHFL_OLD(__shfl_up, __shfl_up_sync)
WEFT_SHFL_OLD(__shfl_down, __shfl_down_sync)
WEFT_SHFL_OLD(__shfl_xor, __shfl_xor_sync)
#undef WEFT_SHFL_OLD

/* curand's normal distribution: Box-Muller on two uniform draws. */
static __device__ __forceinline__ float curand_normal(curandState *s) {
  float u1 = curand_uniform(s), u2 = curand_uniform(s);
  return sqrtf(-2.0f * logf(u1)) * cosf(6.28318530718f * u2);
}

/* saturate(x): x clamped to [0, 1] (a template, so that a program's own wins). */
template <bool B, class T> struct __weft_if {};
template <class T> struct __weft_if<true, T> { typedef T type; };
template <class S>
static __device__ __forceinline__ typename __weft_if<__is_arithmetic(S), float>::type
saturate(S x) {
  return __saturatef((float)x);
}

/* ---- vector arithmetic ---------------------------------------------------------------- */
template <class V> struct __weft_vt {};
#define WEFT_VT(T, N)                                                                          \
  template <> struct __weft_vt<N##2> { typedef T e; static const int n = 2; };               \
  template <> struct __weft_vt<N##3> { typedef T e; static const int n = 3; };               \
  template <> struct __weft_vt<N##4> { typedef T e; static const int n = 4; };
WEFT_VT(float, float)
WEFT_VT(double, double)
WEFT_VT(int, int)
WEFT_VT(unsigned int, uint)
WEFT_VT(signed char, char)
WEFT_VT(unsigned char, uchar)
WEFT_VT(short, short)
WEFT_VT(unsigned short, ushort)
#undef WEFT_VT
#define WEFT_EACH2(F, A) F(x, A) F(y, A)
#define WEFT_EACH3(F, A) F(x, A) F(y, A) F(z, A)
#define WEFT_EACH4(F, A) F(x, A) F(y, A) F(z, A) F(w, A)
#define WEFT_VV(c, OP) r.c = a.c OP b.c;
#define WEFT_VS(c, OP) r.c = a.c OP s;
#define WEFT_SV(c, OP) r.c = s OP a.c;
#define WEFT_CV(c, OP) a.c OP b.c;
#define WEFT_CS(c, OP) a.c OP s;
#define WEFT_NEG(c, OP) r.c = OP a.c;
#define WEFT_FN(RET) template <class V> static __host__ __device__ __forceinline__ RET
#define WEFT_IS(N, T) typename __weft_if<__weft_vt<V>::n == N, T>::type
#define WEFT_VOP(N, OP, COP)                                                                   \
  WEFT_FN(WEFT_IS(N, V)) operator OP(V a, V b) { V r; WEFT_EACH##N(WEFT_VV, OP) return r; }     \
  WEFT_FN(WEFT_IS(N, V)) operator OP(V a, typename __weft_vt<V>::e s) {                      \
    V r;                                                                                       \
    WEFT_EACH##N(WEFT_VS, OP) return r;                                                        \
  }                                                                                            \
  WEFT_FN(WEFT_IS(N, V)) operator OP(typename __weft_vt<V>::e s, V a) {                      \
    V r;                                                                                       \
    WEFT_EACH##N(WEFT_SV, OP) return r;                                                        \
  }                                                                                            \
  WEFT_FN(WEFT_IS(N, void)) operator COP(V &a, V b) { WEFT_EACH##N(WEFT_CV, COP) }             \
  WEFT_FN(WEFT_IS(N, void)) operator COP(V &a, typename __weft_vt<V>::e s) {                 \
    WEFT_EACH##N(WEFT_CS, COP)                                                                 \
  }
#define WEFT_VOPS(N)                                                                           \
  WEFT_VOP(N, +, +=)                                                                           \
  WEFT_VOP(N, -, -=)                                                                           \
  WEFT_VOP(N, *, *=)                                                                           \
  WEFT_VOP(N, /, /=)                                                                           \
  WEFT_FN(WEFT_IS(N, V)) operator-(V a) { V r; WEFT_EACH##N(WEFT_NEG, -) return r; }
WEFT_VOPS(2)
WEFT_VOPS(3)
WEFT_VOPS(4)
#undef WEFT_VOPS
#undef WEFT_VOP
/* Dot product, length, normalisation, clamping and interpolation (float vectors). */
#define WEFT_DOT(c, A) +a.c * b.c
#define WEFT_FLOATV(N) typename __weft_if<__weft_vt<V>::n == N && __is_same(typename __weft_vt<V>::e, float), float>::type
#define WEFT_VHELP(N)                                                                          \
  WEFT_FN(WEFT_FLOATV(N)) dot(V a, V b) { return 0.0f WEFT_EACH##N(WEFT_DOT, 0); }             \
  WEFT_FN(WEFT_FLOATV(N)) length(V a) { return sqrtf(dot(a, a)); }                             \
  WEFT_FN(WEFT_IS(N, V)) normalize(V a) { return a * rsqrtf(dot(a, a)); }                      \
  WEFT_FN(WEFT_IS(N, V)) lerp(V a, V b, float t) { return a + t * (b - a); }
WEFT_VHELP(2)
WEFT_VHELP(3)
WEFT_VHELP(4)
#undef WEFT_VHELP
#undef WEFT_DOT
#undef WEFT_FLOATV
#define WEFT_MINV(c, A) r.c = A(a.c, b.c);
#define WEFT_CLAMPV(c, A) r.c = A(a.c, lo, hi);
#define WEFT_FLOOR(c, A) r.c = A(a.c);
#define WEFT_VMATH(N)                                                                          \
  WEFT_FN(WEFT_IS(N, V)) fminf(V a, V b) { V r; WEFT_EACH##N(WEFT_MINV, fminf) return r; }      \
  WEFT_FN(WEFT_IS(N, V)) fmaxf(V a, V b) { V r; WEFT_EACH##N(WEFT_MINV, fmaxf) return r; }      \
  WEFT_FN(WEFT_IS(N, V)) floorf(V a) { V r; WEFT_EACH##N(WEFT_FLOOR, floorf) return r; }        \
  WEFT_FN(WEFT_IS(N, V)) fabs(V a) { V r; WEFT_EACH##N(WEFT_FLOOR, fabsf) return r; }           \
  WEFT_FN(WEFT_IS(N, V)) clamp(V a, typename __weft_vt<V>::e lo, typename __weft_vt<V>::e hi) { \
    V r;                                                                                       \
    WEFT_EACH##N(WEFT_CLAMPV, clamp) return r;                                                 \
  }
/* Scalar clamp (helper_math.h's, for float and int). */
template <class S>
static __host__ __device__ __forceinline__ typename __weft_if<__is_arithmetic(S), S>::type
clamp(S f, S a, S b) {
  return f < a ? a : (f > b ? b : f);
}
WEFT_VMATH(2)
WEFT_VMATH(3)
WEFT_VMATH(4)
#undef WEFT_VMATH
#undef WEFT_MINV
#undef WEFT_CLAMPV
#undef WEFT_FLOOR
template <class V>
static __host__ __device__ __forceinline__ typename __weft_if<__is_same(V, float3), V>::type
cross(V a, V b) {
  return make_float3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
/* make_TN(s) (every component s) and the float conversions between widths. */
#define WEFT_MAKE_S(T, N)                                                                      \
  template <class S>                                                                           \
  static __host__ __device__ __forceinline__ typename __weft_if<__is_arithmetic(S), N##2>::type \
  make_##N##2(S s) {                                                                           \
    return make_##N##2((T)s, (T)s);                                                            \
  }                                                                                            \
  template <class S>                                                                           \
  static __host__ __device__ __forceinline__ typename __weft_if<__is_arithmetic(S), N##3>::type \
  make_##N##3(S s) {                                                                           \
    return make_##N##3((T)s, (T)s, (T)s);                                                      \
  }                                                                                            \
  template <class S>                                                                           \
  static __host__ __device__ __forceinline__ typename __weft_if<__is_arithmetic(S), N##4>::type \
  make_##N##4(S s) {                                                                           \
    return make_##N##4((T)s, (T)s, (T)s, (T)s);                                                \
  }
WEFT_MAKE_S(float, float)
WEFT_MAKE_S(int, int)
WEFT_MAKE_S(unsigned int, uint)
#undef WEFT_MAKE_S
template <class V>
static __host__ __device__ __forceinline__ typename __weft_if<__weft_vt<V>::n >= 3, float3>::type
make_float3(V a) {
  return make_float3((float)a.x, (float)a.y, (float)a.z);
}
template <class V>
static __host__ __device__ __forceinline__ typename __weft_if<__weft_vt<V>::n == 3, float4>::type
make_float4(V a, float w) {
  return make_float4((float)a.x, (float)a.y, (float)a.z, w);
}
template <class V>
static __host__ __device__ __forceinline__ typename __weft_if<__weft_vt<V>::n == 3, float4>::type
make_float4(V a) {
  return make_float4((float)a.x, (float)a.y, (float)a.z, 0.0f);
}
template <class V>
static __host__ __device__ __forceinline__ typename __weft_if<__weft_vt<V>::n == 4, float4>::type
make_float4(V a) {
  return make_float4((float)a.x, (float)a.y, (float)a.z, (float)a.w);
}
template <class V>
static __host__ __device__ __forceinline__ typename __weft_if<__weft_vt<V>::n == 2, float3>::type
make_float3(V a, float z) {
  return make_float3((float)a.x, (float)a.y, z);
}
#undef WEFT_FN
#undef WEFT_IS
#undef WEFT_EACH2
#undef WEFT_EACH3
#undef WEFT_EACH4
#undef WEFT_VV
#undef WEFT_VS
#undef WEFT_SV
#undef WEFT_CV
#undef WEFT_CS
#undef WEFT_NEG
#endif /* WEFT_CUDA_MATH_H */
