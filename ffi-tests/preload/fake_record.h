/* Shared by the two fakes: a fixed-size call log (no allocation), one per library. */
#ifndef FAKE_RECORD_H
#define FAKE_RECORD_H

#include <stdarg.h>
#include <stdint.h>

#include "fake_cublas.h"

#define FAKE_MAX_CALLS 256

struct fake_log {
    struct fake_call calls[FAKE_MAX_CALLS];
    int count;
};

/* Records `name` with `n` 64-bit arguments. */
static void fake_record(struct fake_log *log, const char *name, int n, ...) {
    if (log->count >= FAKE_MAX_CALLS || n > FAKE_MAX_ARGS) {
        return;
    }
    struct fake_call *c = &log->calls[log->count++];
    va_list ap;
    va_start(ap, n);
    c->name = name;
    c->nargs = n;
    for (int i = 0; i < n; i++) {
        c->args[i] = va_arg(ap, uint64_t);
    }
    va_end(ap);
}

#define P(x) ((uint64_t)(uintptr_t)(x))
#define I(x) ((uint64_t)(int64_t)(x))

#endif
