// The host of one precompiled header set (cmake/precompiled_headers.cmake): the set is compiled
// with this target's flags and reused by the targets that include it. No code of its own.
