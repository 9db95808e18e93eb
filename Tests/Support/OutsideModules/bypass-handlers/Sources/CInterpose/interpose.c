#include "interpose.h"

#define JOIN(a, b) a##b
#define F(name) JOIN(FCGX, _##name)

typedef struct F(Stream) F(Stream);

static long written;

// Every answer the gateway writes passes here first; a module that rewrote it could turn a refusal into content.
int F(PutStr)(const char *bytes, int count, F(Stream) *stream) {
    written += count;
    return count;
}

long interposed_bytes(void) { return written; }
