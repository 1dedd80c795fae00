/* opt_dispatch.c - which ISA level runs, decided once per process from
 * cpuid and xgetbv (x86-64; on aarch64 NEON is the baseline and always
 * runs), overridable with SEL_ISA=<a level of OPT_ISA_LIST>.
 * Holds the kernel table, expanded from OPT_KERNELS.
 *
 * A CPU flag alone is not enough: the OS must also save the wider register
 * state on a context switch (XCR0, read with xgetbv), or the first AVX
 * instruction faults.  SEL_ISA naming a level this machine cannot run, or
 * an unknown name, falls back to the best level that runs, with one line on
 * stderr saying so (the library must not abort its host process).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opt.h"

#if defined(__x86_64__)
#include <cpuid.h>
#endif

#define OPT_KERNEL_ROW(isa, bits, kind) OPT_KERNEL_NAME(isa, bits, kind),
static opt_kernel_fn *const table[] = {OPT_KERNELS(OPT_KERNEL_ROW)};
#undef OPT_KERNEL_ROW

static const char *const names[] = {
#define OPT_ISA_STR(i) #i,
    OPT_ISA_LIST(OPT_ISA_STR)
#undef OPT_ISA_STR
};
/* " scalar sse2 ...": the levels this build knows, for the message. */
#define OPT_ISA_WORD(i) " " #i
#define ISA_WORDS OPT_ISA_LIST(OPT_ISA_WORD)

_Static_assert(sizeof table / sizeof table[0] ==
                   OPT_ISA_COUNT * OPT_WIDTH_COUNT * OPT_K_COUNT,
               "kernel table is ISA x width x kind");

const char *opt_isa_name(int isa)
{
    return isa >= 0 && isa < OPT_ISA_COUNT ? names[isa] : "?";
}

opt_kernel_fn *opt_kernel(int isa, int width, int kind)
{
    return table[(isa * OPT_WIDTH_COUNT + width) * OPT_K_COUNT + kind];
}

static int vbmi; /* AVX512-VBMI (vpermb), with the avx512 level */
/* 512-bit operations run as two 256-bit halves: AMD family 19h (Zen 4).
 * Zen 5 (family 1Ah) has full-width 512-bit units, and the choices opt
 * made on Zen 4 (stores in 256-bit halves, ...) are not all right there;
 * a choice that differs between the two asks opt_cpu_split512(). */
static int split512;

#if defined(__x86_64__)
static uint64_t xgetbv0(void)
{
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t)hi << 32) | lo;
}

/* The CPU family of an AMD CPU (base + extended, cpuid 1), 0 otherwise. */
static unsigned amd_family(void)
{
    unsigned a, b, c, d, f;
    if (!__get_cpuid(0, &a, &b, &c, &d) ||
        b != 0x68747541u || d != 0x69746e65u || c != 0x444d4163u ||
        !__get_cpuid(1, &a, &b, &c, &d)) /* "AuthenticAMD" */
        return 0;
    f = (a >> 8) & 0xf;
    return f == 0xf ? f + ((a >> 20) & 0xff) : f;
}

/* Bits of the answer: 1 << OPT_ISA_x for every level that runs. */
static unsigned detect(void)
{
    unsigned a, b, c, d, ok = 1u << OPT_ISA_scalar;
    uint64_t xcr0 = 0;

    if (!__get_cpuid(1, &a, &b, &c, &d))
        return ok;
    if (d & (1u << 26))
        ok |= 1u << OPT_ISA_sse2;
    if (!(c & (1u << 27))) /* OSXSAVE: the OS manages XCR0 */
        return ok;
    xcr0 = xgetbv0();
    if ((xcr0 & 0x6) != 0x6 || !(c & (1u << 28))) /* XMM, YMM state; AVX */
        return ok;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d))
        return ok;
    if (b & (1u << 5))
        ok |= 1u << OPT_ISA_avx2;
    /* opmask, upper ZMM0-15, ZMM16-31 state; AVX512F, BW, VL. */
    if ((xcr0 & 0xe6) == 0xe6 && (b & (1u << 16)) && (b & (1u << 30)) &&
        (b & (1u << 31)) && (ok & (1u << OPT_ISA_avx2)))
        ok |= 1u << OPT_ISA_avx512;
    vbmi = (ok & (1u << OPT_ISA_avx512)) && (c & (1u << 1));
    split512 = amd_family() == 0x19;
    return ok;
}
#elif defined(__aarch64__)
/* Advanced SIMD is part of the AArch64 base architecture (the ABI passes
 * floats in its registers), so every aarch64 CPU and OS runs it. */
static unsigned detect(void)
{
    return (1u << OPT_ISA_scalar) | (1u << OPT_ISA_neon);
}
#else
static unsigned detect(void)
{
    return 1u << OPT_ISA_scalar;
}
#endif

static unsigned supported;
static atomic_int active = -1; /* -1 until resolved: skips pthread_once */
static pthread_once_t once = PTHREAD_ONCE_INIT;

static int best_at_most(int isa)
{
    while (isa > 0 && !(supported & (1u << isa)))
        isa--;
    return isa;
}

static void resolve(void)
{
    const char *want = getenv("SEL_ISA");
    const char *split = getenv("SEL_SPLIT512");
    int isa, i;

    supported = detect();
    if (split && (!strcmp(split, "0") || !strcmp(split, "1")))
        split512 = *split == '1'; /* measurement: the other CPU's choices */
    else if (split && *split)
        fprintf(stderr, "libselect_opt: SEL_SPLIT512=%s is not 0 or 1; "
                "using %d\n", split, split512);
    isa = best_at_most(OPT_ISA_COUNT - 1);
    if (want && *want) {
        for (i = 0; i < OPT_ISA_COUNT && strcmp(want, names[i]) != 0; i++)
            ;
        if (i == OPT_ISA_COUNT)
            fprintf(stderr, "libselect_opt: SEL_ISA=%s is not one of"
                    ISA_WORDS "; using %s\n", want, names[isa]);
        else if (!(supported & (1u << i)))
            fprintf(stderr, "libselect_opt: SEL_ISA=%s: this CPU/OS cannot "
                    "run it; using %s\n", want,
                    names[isa = best_at_most(i)]);
        else
            isa = i;
    }
    atomic_store_explicit(&active, isa, memory_order_release);
}

int opt_isa_supported(int isa)
{
    pthread_once(&once, resolve);
    return isa >= 0 && isa < OPT_ISA_COUNT && (supported & (1u << isa));
}

int opt_isa_active(void)
{
    int isa = atomic_load_explicit(&active, memory_order_acquire);
    if (isa >= 0)
        return isa;
    pthread_once(&once, resolve);
    return atomic_load_explicit(&active, memory_order_acquire);
}

int opt_isa_force(int isa)
{
    if (!opt_isa_supported(isa))
        return -1;
    atomic_store_explicit(&active, isa, memory_order_relaxed);
    opt_hit_settings(); /* records armed at the old level run its kernels */
    return 0;
}

int opt_cpu_vbmi(void)
{
    pthread_once(&once, resolve);
    return vbmi;
}

int opt_cpu_split512(void)
{
    pthread_once(&once, resolve);
    return split512;
}
