// The one way soapbench's commands declare an option that takes several values: one value per
// occurrence, the option repeated for more (`--parser a --parser b`). CLI11 gives a vector
// option every word up to the next option, so `compare --level decode a.xml b.xml` read the
// paths as levels and `--wsdl=X a b` took a and b as WSDL files; here the word after the option
// (or after its `=`) is its only value and the next word is a path again.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace sb::cli {

// Said after the help of every option added here; a test finds it in every command's --help.
inline constexpr const char* kRepeatForMore = " (repeat for more)";

// Adds option `name` to `cmd`: each occurrence appends its one value to `values` (a delimiter
// set on the returned option splits that one word, as `--connections 1,4,16`).
template <class T>
CLI::Option* add_repeatable_option(CLI::App* cmd, const std::string& name, std::vector<T>& values,
                                   const std::string& help) {
  return cmd->add_option(name, values, help + kRepeatForMore)
      ->expected(1)
      ->allow_extra_args(false)  // expected(1) alone keeps the vector's "take what follows"
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

}  // namespace sb::cli
