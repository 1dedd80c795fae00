/* h_sleef.h - operands produced by real math: SLEEF's deterministic
 * functions applied to a deterministic input ramp, for the value classes
 * "sleef:log", "sleef:exp", ... of the harness.
 *
 * Functions (SLEEF 3.5.1, libsleef-dev): Sleef_cinz_<fn>{d,f}1_<acc>purec,
 * with <fn>_<acc> = log_u10, exp_u10, sqrt_u05, sin_u10, tanh_u10.  "cinz"
 * is SLEEF's deterministic family without FMA: each vector level (sse2,
 * sse4, avx, avx512fnofma) is built from the same source as the scalar
 * purec one with SLEEF's DETERMINISTIC switch, so none depends on FMA or
 * on an ISA-specific shortcut, and the results are the same on every
 * x86-64.  The FMA family "finz" agrees within itself, not with cinz.
 * Measured here by harness/t/sleef_levels.c over 1.3M elements: every
 * cinz level gives the same numbers as purec, and the same NaN-ness, but
 * not always the same NaN bits (avx512fnofma log of a negative returns
 * the input's sign and payload; avx and avx512fnofma f64 sqrt pass an input
 * NaN's payload through; purec returns the default NaN).  Hence
 * H_SLEEF_NAN below: with it, the bytes are identical under every level.
 * The scalar purec functions are used here: they run on any x86-64.
 *
 * Input ramp, element i (j = i + phase, phase from the seed, see below):
 *   j % 4 == 0, 1: a linear grid x = lo + step * (t mod P), t = 2*(j/4) +
 *                  j%4, over the function's interesting range (log and
 *                  sqrt cross 0 into the negatives, exp crosses its
 *                  overflow and underflow thresholds, sin/tanh their
 *                  turning and saturation regions); every point exact.
 *   j % 4 == 2:    a sweep over every biased exponent but the all-ones
 *                  one (0: subnormals, with the lowest mantissa bit set so
 *                  the smallest appears), the top three mantissa bits
 *                  stepping 0..7, both signs; built as bits, so exact.
 *   j % 4 == 3:    specials: +-0, +-inf, quiet NaN with a payload, a
 *                  signalling NaN, +-1, +-0.5, min/max subnormal, min
 *                  normal, +-max finite.
 * phase = splitmix64(seed) mod 2^24: different seeds start at different
 * points of the ramp; the same seed always gives the same bytes.
 *
 * Dtypes: f64 uses the double variants on the f64 ramp; f32 the float
 * variants on the f32 ramp; f16 and bf16 compute in f32 (f16 with its own
 * exp range so its overflow/underflow is reached) and narrow the f32
 * result with h_sleef_f32_to_f16/bf16.  Other dtypes (integers, boolean,
 * f8) are an error: math does not produce them.
 */
#ifndef H_SLEEF_H
#define H_SLEEF_H

#include <stdint.h>

/* Every NaN a function returns becomes this quiet NaN: SLEEF's levels
 * agree on which results are NaN but not on their sign and payload (see
 * above).  The payload is not the default one, so an implementation that
 * canonicalises NaNs still shows; narrowed, it is 0x7e80 (f16) and 0x7fd0
 * (bf16). */
#define H_SLEEF_NAN32 0x7fd00000u
#define H_SLEEF_NAN64 0x7ffa000000000000u

/* Fills n elements of dtype (a sel_dtype) at buf with fn applied to the
 * ramp.  Returns 0, or -1 for an unknown fn, an unsupported dtype, n < 0
 * or buf NULL with n > 0 (buf is then untouched). */
int h_sleef_fill(const char *fn, int32_t dtype, void *buf, int64_t n,
                 uint64_t seed);

/* The ramp itself: n inputs of fn as f64 (dtype f64) or f32 (f32, f16,
 * bf16), the values h_sleef_fill passes to SLEEF.  Same returns. */
int h_sleef_input(const char *fn, int32_t dtype, void *buf, int64_t n,
                  uint64_t seed);

/* The function names, NULL-terminated: "log", "exp", "sqrt", "sin",
 * "tanh". */
const char *const *h_sleef_names(void);

/* f32 bits -> f16 / bf16 bits, round to nearest even, by integer
 * operations only.  Overflow gives infinity, underflow subnormals or
 * zero with the sign kept.  A NaN stays a NaN of the same sign: the
 * quiet bit is set and the top payload bits are kept (f16: f32 payload
 * bits 22..13, bf16: bits 22..16), the rest dropped; this is what the
 * F16C instruction vcvtps2ph does. */
uint16_t h_sleef_f32_to_f16(uint32_t f32bits);
uint16_t h_sleef_f32_to_bf16(uint32_t f32bits);

#endif
