#!/bin/sh
# Fails when a tracked C/C++ file does not match .clang-format. Usage: tools/check_format.sh [--fix]
set -eu
cd "$(dirname "$0")/.."
files=$(git ls-files '*.cpp' '*.h' '*.hpp' 2>/dev/null || true)
[ -z "$files" ] && files=$(find core codecs parsers harness measure cli bench peers tests tools -name '*.cpp' -o -name '*.h' 2>/dev/null)
if [ "${1:-}" = "--fix" ]; then
  # shellcheck disable=SC2086
  clang-format -i $files
  exit 0
fi
# shellcheck disable=SC2086
if ! clang-format --dry-run --Werror $files; then
  echo "tools/check_format.sh: run 'tools/check_format.sh --fix'" >&2
  exit 1
fi
echo "format ok ($(echo "$files" | wc -w) files)"
