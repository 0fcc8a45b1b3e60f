#include "cli/report_error.h"

#include <fmt/core.h>

namespace sb::cli {

void report_error(std::string_view file, std::string_view parser, std::string_view original,
                  const Status& status) {
  Location where = status.where();
  if (where.line < 0 && where.offset >= 0) {
    const auto end = static_cast<std::size_t>(
        std::min<std::int64_t>(where.offset, static_cast<std::int64_t>(original.size())));
    where.line = 1;
    std::size_t line_start = 0;
    for (std::size_t i = 0; i < end; ++i) {
      if (original[i] == '\n') {
        ++where.line;
        line_start = i + 1;
      }
    }
    where.column = static_cast<std::int64_t>(end - line_start) + 1;
  }
  std::string position;
  if (where.line >= 0) {
    position = fmt::format("line {}", where.line);
    if (where.column >= 0) position += fmt::format(", column {}", where.column);
    if (where.offset >= 0) position += fmt::format(" (offset {})", where.offset);
    position += ": ";
  }
  // Keep it one line whatever the library put in its message.
  std::string reason = status.reason();
  for (char& c : reason) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  while (!reason.empty() && reason.back() == ' ') reason.pop_back();
  fmt::print(stderr, "soapbench: {}: {}: {}{}\n", file, parser, position, reason);
}

}  // namespace sb::cli
