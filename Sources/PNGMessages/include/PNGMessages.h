#ifndef OCULAR_PNG_MESSAGES_H
#define OCULAR_PNG_MESSAGES_H

#ifdef __cplusplus
extern "C" {
#endif

/// Receives one of libpng's messages: `isError` 0 for a warning ("iCCP: known incorrect sRGB
/// profile"), 1 for the error that stops a decode (which OpenCV reports as a failed read anyway).
typedef void (*png_message_sink)(int isError, const char *message);

/// Where libpng's messages go from now on; NULL drops them. Without this target in the program,
/// libpng prints them on standard error itself.
void png_messages_route(png_message_sink sink);

#ifdef __cplusplus
}
#endif

#endif
