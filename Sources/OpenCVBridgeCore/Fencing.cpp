// The messages the fence writes (Bridging.hpp).
#include "Bridging.hpp"

#include <cstdarg>
#include <cstdio>
#include <string>

namespace ocular_bridge {

void setMessage(OCVError *error, const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    std::vsnprintf(error->message, sizeof error->message, format, arguments);
    va_end(arguments);
}

std::string oneLine(const std::string &text) {
    std::string line;
    bool pendingSpace = false;
    for (size_t index = 0; index < text.size(); ++index) {
        const char character = text[index];
        const bool isQuoteMarker = character == '>' && (index == 0 || text[index - 1] == '\n');
        if (character == '\n' || character == ' ' || character == '\t' || isQuoteMarker) {
            pendingSpace = !line.empty();
            continue;
        }
        if (pendingSpace) line += ' ';
        pendingSpace = false;
        line += character;
    }
    return line;
}

}  // namespace ocular_bridge
