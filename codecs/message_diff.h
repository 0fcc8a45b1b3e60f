// Where two decoded messages differ, in one line a reader can act on: the path of the first
// differing value and both values in canonical JSON ("params[0] is \"\", not \"test\" as 14
// adapters decode it"). What `compare` and the benchmarks say when an adapter's answer is not the
// reference's, instead of guessing a reason from the adapter's flags.
#pragma once

#include <string>

#include "codecs/value.h"

namespace sb::rpc {

// The first difference of `got` from `want` ("" when they are equal), values shortened to about
// 60 bytes, followed by `reference`, which says whose `want` is ("as the manifest has it").
std::string first_difference(const Message& got, const Message& want, const std::string& reference);

}  // namespace sb::rpc
