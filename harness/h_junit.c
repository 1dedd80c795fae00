/* h_junit.c - --junit FILE: JUnit XML for CI dashboards, one testcase per
 * TAP test (name: the case address, classname: the case file), failures
 * with their message and YAML diagnostic, skips marked, TODOs as passes.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "h_results.h"

/* Text or an attribute value: XML 1.0 has no control characters but tab
 * and line breaks; the others become spaces.  The HTML pages use it too. */
void h_xml_text(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '&')
            fputs("&amp;", f);
        else if (c == '<')
            fputs("&lt;", f);
        else if (c == '>')
            fputs("&gt;", f);
        else if (c == '"')
            fputs("&quot;", f);
        else if (c < ' ' && c != '\n' && c != '\t')
            fputc(' ', f);
        else
            fputc(c, f);
    }
}

/* Several implementations or profiles: the address alone repeats, so the
 * name carries them too, as the TAP line does. */
static int several(const h_runset *rs)
{
    size_t i;

    for (i = 1; i < rs->n; i++)
        if (strcmp(rs->v[i].impl, rs->v[0].impl) ||
            strcmp(rs->v[i].profile, rs->v[0].profile))
            return 1;
    return 0;
}

static void testcase(FILE *f, const h_rec *r, int tag)
{
    fputs("    <testcase name=\"", f);
    h_xml_text(f, r->addr);
    if (tag && r->impl[0]) {
        fputs(" [", f);
        h_xml_text(f, r->profile);
        fputc(' ', f);
        h_xml_text(f, r->impl);
        fputc(']', f);
    }
    fputs("\" classname=\"", f);
    h_xml_text(f, r->file[0] ? r->file : "selcheck");
    fprintf(f, "\" time=\"%.6f\"", r->secs);
    if (r->outcome == H_PASS) {
        fputs("/>\n", f);
        return;
    }
    fputs(">\n", f);
    if (r->outcome == H_FAIL) {
        fputs("      <failure message=\"", f);
        h_xml_text(f, r->reason);
        fputs("\" type=\"selcheck\">", f);
        fprintf(f, "not ok %ld - ", r->n);
        h_xml_text(f, r->desc);
        fputs("\n  ---\n", f);
        h_xml_text(f, r->diag[0] ? r->diag : "  (in the TAP: the first 20000 "
                                      "failures keep their block here)\n");
        fputs("  ...\n</failure>\n", f);
    } else if (r->outcome == H_SKIP) {
        fputs("      <skipped message=\"", f);
        h_xml_text(f, r->reason);
        fputs("\"/>\n", f);
    } else {
        fputs("      <system-out>TODO ", f);
        h_xml_text(f, r->reason);
        fputs("</system-out>\n", f);
    }
    fputs("    </testcase>\n", f);
}

/* One testsuite per case file, in the order the files ran. */
int h_junit_write(const h_runset *rs, const char *path)
{
    FILE *f = fopen(path, "w");
    long cnt[4] = {0};
    size_t i, j;
    int tag = several(rs);

    if (!f) {
        fprintf(stderr, "selcheck: cannot write %s: %s\n", path,
                strerror(errno));
        return -1;
    }
    for (i = 0; i < rs->n; i++)
        cnt[rs->v[i].outcome]++;
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<testsuites name=\"selcheck\" tests=\"%zu\" failures=\"%ld\" "
            "skipped=\"%ld\" errors=\"0\">\n", rs->n, cnt[H_FAIL],
            cnt[H_SKIP]);
    for (i = 0; i < rs->n; i = j) {
        long fails = 0, skips = 0;
        double secs = 0;
        for (j = i; j < rs->n && !strcmp(rs->v[j].file, rs->v[i].file); j++) {
            fails += rs->v[j].outcome == H_FAIL;
            skips += rs->v[j].outcome == H_SKIP;
            secs += rs->v[j].secs;
        }
        fputs("  <testsuite name=\"", f);
        h_xml_text(f, rs->v[i].file[0] ? rs->v[i].file : "selcheck");
        fprintf(f, "\" tests=\"%zu\" failures=\"%ld\" skipped=\"%ld\" "
                "errors=\"0\" time=\"%.6f\">\n", j - i, fails, skips, secs);
        for (; i < j; i++)
            testcase(f, &rs->v[i], tag);
        fputs("  </testsuite>\n", f);
    }
    fputs("</testsuites>\n", f);
    if (ferror(f) | fclose(f)) {
        fprintf(stderr, "selcheck: cannot write %s\n", path);
        return -1;
    }
    return 0;
}
