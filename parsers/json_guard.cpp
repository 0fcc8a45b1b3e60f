#include "parsers/json_guard.h"

#include <string>
#include <vector>

namespace sb {

std::size_t json_guard_threshold(const Limits& limits) { return limits.max_members * 4; }

Status check_json_limits(std::string_view json, const Limits& limits) {
  // Members counted per open container (arrays count nothing: a ':' there is malformed).
  std::vector<std::size_t> members;
  const std::size_t size = json.size();
  for (std::size_t i = 0; i < size; ++i) {
    switch (json[i]) {
      case '"':  // skip the string, escapes included
        for (++i; i < size && json[i] != '"'; ++i) {
          if (json[i] == '\\') ++i;
        }
        break;
      case '{':
      case '[':
        members.push_back(0);
        break;
      case '}':
      case ']':
        if (members.empty()) return Status::success();  // unbalanced: the library rejects it
        members.pop_back();
        break;
      case ':':
        if (!members.empty() && ++members.back() > limits.max_members) {
          return Status::limit("more than " + std::to_string(limits.max_members) +
                               " members in one object");
        }
        break;
      default:
        break;
    }
  }
  return Status::success();
}

}  // namespace sb
