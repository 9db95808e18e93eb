/* For the soak's comparison of allocators (SOAK_ALLOCATOR=glibc): preloaded into storegate, which is linked with
 * mimalloc, it sends every allocation entry point mimalloc overrides (malloc and friends, glibc's __libc_ names,
 * C++ new and delete) to glibc's own malloc, looked up in libc.so.6. Allocations made while the lookup itself runs
 * come from a small static block that is never freed. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <string.h>
#include <errno.h>
static void *(*l_malloc)(size_t); static void (*l_free)(void *); static void *(*l_calloc)(size_t, size_t);
static void *(*l_realloc)(void *, size_t); static void *(*l_memalign)(size_t, size_t); static size_t (*l_usable)(void *);
static char boot[1 << 16] __attribute__((aligned(64))); static size_t used; static int initing;
#define IN_BOOT(p) ((char *)(p) >= boot && (char *)(p) < boot + sizeof boot)
static void *boot_alloc(size_t n) { n = (n + 63) & ~63UL; void *p = boot + used; used += n; memset(p, 0, n); return p; }
static void init(void) {
    initing = 1;
    void *h = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
    l_free = dlsym(h, "free"); l_calloc = dlsym(h, "calloc");
    l_realloc = dlsym(h, "realloc"); l_memalign = dlsym(h, "memalign"); l_usable = dlsym(h, "malloc_usable_size");
    void *m = dlsym(h, "malloc");
    initing = 0;
    l_malloc = m;
}
void *malloc(size_t n) { if (!l_malloc) { if (initing) return boot_alloc(n); init(); } return l_malloc(n); }
void free(void *p) { if (!p || IN_BOOT(p)) return; if (!l_malloc) init(); l_free(p); }
void cfree(void *p) { free(p); }
void *calloc(size_t a, size_t b) { if (!l_malloc) { if (initing) return boot_alloc(a * b); init(); } return l_calloc(a, b); }
void *realloc(void *p, size_t n) {
    if (!l_malloc) { if (initing) { void *q = boot_alloc(n); return q; } init(); }
    if (IN_BOOT(p)) { void *q = l_malloc(n); memcpy(q, p, n); return q; }
    return l_realloc(p, n);
}
void *reallocarray(void *p, size_t a, size_t b) { return realloc(p, a * b); }
void *memalign(size_t a, size_t n) { if (!l_malloc) { if (initing) return boot_alloc(n); init(); } return l_memalign(a, n); }
void *aligned_alloc(size_t a, size_t n) { return memalign(a, n); }
void *valloc(size_t n) { return memalign(4096, n); }
void *pvalloc(size_t n) { return memalign(4096, (n + 4095) & ~4095UL); }
int posix_memalign(void **out, size_t a, size_t n) { void *p = memalign(a, n); if (!p) return ENOMEM; *out = p; return 0; }
size_t malloc_usable_size(void *p) { if (IN_BOOT(p)) return 64; if (!l_malloc) init(); return l_usable(p); }
void *__libc_malloc(size_t n) { return malloc(n); }
void __libc_free(void *p) { free(p); }
void *__libc_calloc(size_t a, size_t b) { return calloc(a, b); }
void *__libc_realloc(void *p, size_t n) { return realloc(p, n); }
void *__libc_memalign(size_t a, size_t n) { return memalign(a, n); }
void *_Znwm(size_t n) { return malloc(n); }
void *_Znam(size_t n) { return malloc(n); }
void *_ZnwmRKSt9nothrow_t(size_t n, void *t) { return malloc(n); }
void *_ZnamRKSt9nothrow_t(size_t n, void *t) { return malloc(n); }
void *_ZnwmSt11align_val_t(size_t n, size_t a) { return memalign(a, n); }
void *_ZnamSt11align_val_t(size_t n, size_t a) { return memalign(a, n); }
void *_ZnwmSt11align_val_tRKSt9nothrow_t(size_t n, size_t a, void *t) { return memalign(a, n); }
void *_ZnamSt11align_val_tRKSt9nothrow_t(size_t n, size_t a, void *t) { return memalign(a, n); }
void _ZdlPv(void *p) { free(p); } void _ZdaPv(void *p) { free(p); }
void _ZdlPvm(void *p, size_t n) { free(p); } void _ZdaPvm(void *p, size_t n) { free(p); }
void _ZdlPvSt11align_val_t(void *p, size_t a) { free(p); } void _ZdaPvSt11align_val_t(void *p, size_t a) { free(p); }
void _ZdlPvmSt11align_val_t(void *p, size_t n, size_t a) { free(p); } void _ZdaPvmSt11align_val_t(void *p, size_t n, size_t a) { free(p); }
