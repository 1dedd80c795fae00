/* sleef_cpu.h - which x86-64 ISA extensions this CPU and OS can run, from
 * cpuid and xgetbv, for the SLEEF tests in harness/t/ (gcc and clang agree
 * on <cpuid.h>, not on the feature names of __builtin_cpu_supports).
 * Header-only: static functions, one copy per test program.
 */
#ifndef SLEEF_CPU_H
#define SLEEF_CPU_H

#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

/* XCR0: which register states the OS saves (bit 1 SSE, 2 AVX, 5-7
 * AVX-512); 0 when the OS does not enable xgetbv. */
static unsigned long long cpu_xcr0(void)
{
    unsigned a, b, c, d, lo, hi;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 27)))
        return 0;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((unsigned long long)hi << 32) | lo;
}

/* 1 if the named feature can run: "sse2", "sse4.1", "avx", "fma",
 * "f16c", "avx2", "fma4", "avx512f"; 0 otherwise or for another name. */
static int cpu_has(const char *f)
{
    unsigned a, b, c1 = 0, d1 = 0, b7 = 0, c8 = 0, d;
    unsigned long long xcr0 = cpu_xcr0();
    int avx_os = (xcr0 & 0x6) == 0x6, avx512_os = (xcr0 & 0xe6) == 0xe6;

    __get_cpuid(1, &a, &b, &c1, &d1);
    if ((unsigned)__get_cpuid_max(0, NULL) >= 7u)
        __cpuid_count(7, 0, a, b7, c8, d);
    c8 = 0;
    if ((unsigned)__get_cpuid_max(0x80000000u, NULL) >= 0x80000001u)
        __get_cpuid(0x80000001u, &a, &b, &c8, &d);
    if (strcmp(f, "sse2") == 0) return (d1 >> 26) & 1;
    if (strcmp(f, "sse4.1") == 0) return (c1 >> 19) & 1;
    if (strcmp(f, "avx") == 0) return avx_os && ((c1 >> 28) & 1);
    if (strcmp(f, "fma") == 0) return avx_os && ((c1 >> 12) & 1);
    if (strcmp(f, "f16c") == 0) return avx_os && ((c1 >> 29) & 1);
    if (strcmp(f, "avx2") == 0) return avx_os && ((b7 >> 5) & 1);
    if (strcmp(f, "fma4") == 0) return avx_os && ((c8 >> 16) & 1);
    if (strcmp(f, "avx512f") == 0) return avx512_os && ((b7 >> 16) & 1);
    return 0;
}
#else
static int cpu_has(const char *f)
{
    (void)f;
    return 0;
}
#endif

#endif
