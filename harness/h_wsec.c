/* h_wsec.c - the worker's seccomp filter (raw BPF, no library): the
 * library may not ptrace, read or write another process's memory, signal
 * or change the limits of any process but its own, or use x32 calls.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "h_wsec.h"

#if defined(__x86_64__)
#define H_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define H_ARCH AUDIT_ARCH_AARCH64
#endif

#ifndef __NR_pidfd_send_signal
#define __NR_pidfd_send_signal 424
#endif
#ifndef __NR_pidfd_getfd
#define __NR_pidfd_getfd 438
#endif

#ifdef H_ARCH
typedef struct prog {
    struct sock_filter f[64];
    unsigned short n;
} prog;

static void op(prog *p, unsigned short code, unsigned k, unsigned char jt,
               unsigned char jf)
{
    struct sock_filter s = {code, jt, jf, k};
    p->f[p->n++] = s;
}

#define LD_NR(p) op(p, BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr), 0, 0)
/* args[0]'s low 32 bits (little-endian): a pid_t */
#define LD_ARG0(p) op(p, BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0]), 0, 0)
#define RET(p, k) op(p, BPF_RET | BPF_K, (k), 0, 0)
#define JEQ(p, k, t, f) op(p, BPF_JMP | BPF_JEQ | BPF_K, (k), (t), (f))

/* A SIGSYS the worker reports, naming the call. */
#define DENY SECCOMP_RET_TRAP

static void deny(prog *p, unsigned nr)
{
    JEQ(p, nr, 0, 1);
    RET(p, DENY);
}

/* nr allowed only when its first argument is self (or 0, with zero). */
static void self_only(prog *p, unsigned nr, unsigned self, int zero)
{
    JEQ(p, nr, 0, (unsigned char)(zero ? 5 : 4));
    LD_ARG0(p);
    if (zero)
        JEQ(p, 0, 2, 0);
    JEQ(p, self, 1, 0);
    RET(p, DENY);
    RET(p, SECCOMP_RET_ALLOW);
}

int h_wsec_install(pid_t self, char *why, size_t n)
{
    struct sock_fprog fp;
    prog p;

    memset(&p, 0, sizeof p);
    op(&p, BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch), 0, 0);
    JEQ(&p, H_ARCH, 1, 0);
    RET(&p, DENY);
    LD_NR(&p);
#ifdef __x86_64__
    op(&p, BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1); /* x32 numbers */
    RET(&p, DENY);
#endif
    deny(&p, __NR_ptrace);
    deny(&p, __NR_process_vm_readv);
    deny(&p, __NR_process_vm_writev);
    deny(&p, __NR_tkill);
    deny(&p, __NR_pidfd_send_signal);
    deny(&p, __NR_pidfd_getfd);
    self_only(&p, __NR_kill, (unsigned)self, 0);
    self_only(&p, __NR_tgkill, (unsigned)self, 0);
    self_only(&p, __NR_rt_sigqueueinfo, (unsigned)self, 0);
    self_only(&p, __NR_rt_tgsigqueueinfo, (unsigned)self, 0);
    self_only(&p, __NR_prlimit64, (unsigned)self, 1);
    RET(&p, SECCOMP_RET_ALLOW);
    fp.len = p.n;
    fp.filter = p.f;
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
        prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fp, 0, 0)) {
        snprintf(why, n, "seccomp: %s", strerror(errno));
        return -1;
    }
    return 0;
}
#else
int h_wsec_install(pid_t self, char *why, size_t n)
{
    (void)self;
    snprintf(why, n, "seccomp: no filter for this architecture");
    return -1;
}
#endif

const char *h_wsec_name(int nr)
{
    switch (nr) {
    case __NR_ptrace: return "ptrace";
    case __NR_process_vm_readv: return "process_vm_readv";
    case __NR_process_vm_writev: return "process_vm_writev";
    case __NR_tkill: return "tkill";
    case __NR_pidfd_send_signal: return "pidfd_send_signal";
    case __NR_pidfd_getfd: return "pidfd_getfd";
    case __NR_kill: return "kill";
    case __NR_tgkill: return "tgkill";
    case __NR_rt_sigqueueinfo: return "rt_sigqueueinfo";
    case __NR_rt_tgsigqueueinfo: return "rt_tgsigqueueinfo";
    case __NR_prlimit64: return "prlimit64";
    default: return NULL;
    }
}
