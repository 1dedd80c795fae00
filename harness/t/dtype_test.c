/* dtype_test.c - unit checks of h_dtype.c: exact conversion of literals to
 * every float format at its edges (largest finite, smallest subnormal,
 * one bit too many, one step too small), integer ranges, hex patterns,
 * and the decoded notes failures print.  make check-harness-dtype.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "h_dtype.h"

static int fails;

static void conv(int32_t dt, double v, int ok, uint64_t want)
{
    h_lit l;
    uint64_t got = 0;
    char err[200];
    int st;

    memset(&l, 0, sizeof l);
    l.kind = H_LIT_NUM;
    l.num = v;
    st = h_lit_bits(dt, &l, &got, err, sizeof err);
    if ((st == 0) != ok || (ok && got != want)) {
        printf("FAIL %s %.17g: %s, got 0x%llx want %s0x%llx\n",
               sel_dtype_name(dt), v, st ? err : "converted",
               (unsigned long long)got, ok ? "" : "an error, not ",
               (unsigned long long)want);
        fails++;
    }
}

static void note(int32_t dt, uint64_t bits, const char *want)
{
    char buf[120];
    h_bits_note(dt, bits, buf, sizeof buf);
    if (strcmp(buf, want) != 0) {
        printf("FAIL note %s 0x%llx: '%s', want '%s'\n", sel_dtype_name(dt),
               (unsigned long long)bits, buf, want);
        fails++;
    }
}

int main(void)
{
    h_lit hex;
    uint64_t got;
    char err[200];

    /* f16: 1, max 65504, min normal 2^-14, min subnormal 2^-24 */
    conv(SEL_DT_F16, 1.0, 1, 0x3c00);
    conv(SEL_DT_F16, -2.0, 1, 0xc000);
    conv(SEL_DT_F16, 65504.0, 1, 0x7bff);
    conv(SEL_DT_F16, 65520.0, 0, 0);           /* rounds to inf: refused */
    conv(SEL_DT_F16, ldexp(1, -14), 1, 0x0400);
    conv(SEL_DT_F16, ldexp(1, -24), 1, 0x0001);
    conv(SEL_DT_F16, ldexp(1, -25), 0, 0);     /* below the grid */
    conv(SEL_DT_F16, ldexp(3, -24), 1, 0x0003);
    conv(SEL_DT_F16, 2049.0, 0, 0);            /* 12 significant bits */
    conv(SEL_DT_F16, 2048.0, 1, 0x6800);
    conv(SEL_DT_F16, 0.1, 0, 0);
    conv(SEL_DT_F16, -0.0, 1, 0x8000);
    conv(SEL_DT_F16, INFINITY, 1, 0x7c00);
    conv(SEL_DT_F16, NAN, 0, 0);               /* NaN must be bits */
    /* bf16 */
    conv(SEL_DT_BF16, 1.0, 1, 0x3f80);
    conv(SEL_DT_BF16, 257.0, 0, 0);
    conv(SEL_DT_BF16, 256.0, 1, 0x4380);
    conv(SEL_DT_BF16, ldexp(1, -133), 1, 0x0001);
    conv(SEL_DT_BF16, ldexp(255, 120), 1, 0x7f7f); /* max finite */
    /* f8e4m3 (OCP FN): max 448, no inf, 0x7f is NaN */
    conv(SEL_DT_F8E4M3, 448.0, 1, 0x7e);
    conv(SEL_DT_F8E4M3, 480.0, 0, 0);          /* would be the NaN pattern */
    conv(SEL_DT_F8E4M3, INFINITY, 0, 0);
    conv(SEL_DT_F8E4M3, ldexp(1, -9), 1, 0x01);
    conv(SEL_DT_F8E4M3, -1.0, 1, 0xb8);
    conv(SEL_DT_F8E4M3, 9.0, 1, 0x51);
    conv(SEL_DT_F8E4M3, 17.0, 0, 0);
    /* f8e5m2: max 57344, inf exists */
    conv(SEL_DT_F8E5M2, 57344.0, 1, 0x7b);
    conv(SEL_DT_F8E5M2, INFINITY, 1, 0x7c);
    conv(SEL_DT_F8E5M2, 9.0, 0, 0);
    conv(SEL_DT_F8E5M2, ldexp(1, -16), 1, 0x01);
    /* f32, f64 */
    conv(SEL_DT_F32, 16777217.0, 0, 0);
    conv(SEL_DT_F32, 0.5, 1, 0x3f000000);
    conv(SEL_DT_F32, ldexp(1, -149), 1, 0x00000001);
    conv(SEL_DT_F64, 0.1, 1, 0x3fb999999999999aull);
    conv(SEL_DT_F64, ldexp(1, -1074), 1, 1);
    /* integers */
    conv(SEL_DT_I8, -128.0, 1, 0x80);
    conv(SEL_DT_I8, 128.0, 0, 0);
    conv(SEL_DT_U8, -1.0, 0, 0);
    conv(SEL_DT_U16, 65535.0, 1, 0xffff);
    conv(SEL_DT_I32, 1.5, 0, 0);
    conv(SEL_DT_I64, -9007199254740991.0, 1, 0xffe0000000000001ull);
    conv(SEL_DT_I64, 9007199254740992.0, 0, 0); /* 2^53: hex string */
    conv(SEL_DT_BOOLEAN, 1.0, 1, 1);
    conv(SEL_DT_BOOLEAN, 2.0, 0, 0);
    /* hex patterns fit the width */
    memset(&hex, 0, sizeof hex);
    hex.kind = H_LIT_HEX;
    hex.bits = 0x1ffff;
    if (h_lit_bits(SEL_DT_F16, &hex, &got, err, sizeof err) == 0) {
        printf("FAIL 0x1ffff accepted as f16\n");
        fails++;
    }
    /* ramp values: exact and saturating */
    if (h_int_bits(SEL_DT_F16, 5000) != 0x6800 || h_int_bits(SEL_DT_I8, -300) != 0x80 ||
        h_int_bits(SEL_DT_F8E4M3, 3) != 0x44) {
        printf("FAIL h_int_bits\n");
        fails++;
    }
    /* notes */
    note(SEL_DT_F32, 0x7fc00001, "0x7fc00001 (nan payload 0x1)");
    note(SEL_DT_F32, 0x7f800001, "0x7f800001 (snan payload 0x1)");
    note(SEL_DT_F32, 0xffc00000, "0xffc00000 (-nan)");
    note(SEL_DT_F16, 0x8000, "0x8000 (-0.0)");
    note(SEL_DT_F16, 0x0001, "0x0001 (subnormal 5.9605e-08)");
    note(SEL_DT_F16, 0xfc00, "0xfc00 (-inf)");
    note(SEL_DT_BF16, 0x3f80, "0x3f80 (1)");
    note(SEL_DT_F8E4M3, 0x7f, "0x7f (nan)");
    note(SEL_DT_F8E4M3, 0x7e, "0x7e (448)");
    note(SEL_DT_I16, 0xffff, "0xffff (-1)");
    note(SEL_DT_U64, 0xffffffffffffffffull, "0xffffffffffffffff (18446744073709551615)");
    note(SEL_DT_BOOLEAN, 0x80, "0x80 (nonzero byte)");
    if (fails) {
        printf("dtype_test: %d failure(s)\n", fails);
        return 1;
    }
    printf("dtype_test: exact conversion and notes as expected\n");
    return 0;
}
