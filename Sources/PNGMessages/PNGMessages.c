// libpng's messages through Ocular's own logging.
//
// OpenCV creates its PNG readers and writers without message handlers, so libpng prints every warning
// and error on standard error itself ("libpng warning: iCCP: known incorrect sRGB profile" for every
// read of astronaut.png, in the middle of `--json` output piped with 2>&1), and OpenCV 4.6 offers no
// way to reach the reader it makes. This program's own png_create_read_struct and
// png_create_write_struct (exported by the executable, see Package.swift) come first in the dynamic
// linker's search, so OpenCV's calls land here; each calls libpng's with handlers of ours wherever the
// caller gave none. libpng itself is found with dlsym, so this needs no link to it.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "PNGMessages.h"

typedef void *png_struct_pointer;  // libpng's png_structp, opaque here
typedef void (*png_handler)(png_struct_pointer, const char *);
typedef png_struct_pointer (*png_create)(const char *version, void *errorPointer, png_handler error, png_handler warning);
typedef void (*png_jump)(png_struct_pointer, int);

static _Atomic(png_message_sink) routedSink = NULL;

void png_messages_route(png_message_sink sink) { atomic_store(&routedSink, sink); }

static void deliver(int isError, const char *message) {
    png_message_sink sink = atomic_load(&routedSink);
    if (sink) sink(isError, message);
}

static void warning(png_struct_pointer png, const char *message) {
    (void)png;
    deliver(0, message);
}

// libpng's own default does the same after printing: an error handler must not return, and libpng's
// callers (OpenCV) have set the jump buffer png_longjmp returns to.
static void error(png_struct_pointer png, const char *message) {
    deliver(1, message);
    png_jump jump = (png_jump)dlsym(RTLD_NEXT, "png_longjmp");
    if (jump) jump(png, 1);
    abort();  // unreachable: we are called from libpng, so png_longjmp exists
}

static png_struct_pointer create(const char *name, const char *version, void *errorPointer, png_handler errorHandler,
                                 png_handler warningHandler) {
    png_create real = (png_create)dlsym(RTLD_NEXT, name);
    if (!real) return NULL;  // libpng's own answer to a failed creation
    return real(version, errorPointer, errorHandler ? errorHandler : error, warningHandler ? warningHandler : warning);
}

png_struct_pointer png_create_read_struct(const char *version, void *errorPointer, png_handler error, png_handler warning) {
    return create("png_create_read_struct", version, errorPointer, error, warning);
}

png_struct_pointer png_create_write_struct(const char *version, void *errorPointer, png_handler error, png_handler warning) {
    return create("png_create_write_struct", version, errorPointer, error, warning);
}
