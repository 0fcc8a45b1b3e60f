// The one-line error report every subcommand uses for rejected input.
#pragma once

#include <string_view>

#include "core/status.h"

namespace sb::cli {

// Prints "soapbench: FILE: PARSER: line L, column C: reason" to stderr; derives the line and
// column from the byte offset when the library gave only an offset.
void report_error(std::string_view file, std::string_view parser, std::string_view original,
                  const Status& status);

}  // namespace sb::cli
