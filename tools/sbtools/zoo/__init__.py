"""The regression zoo (tools/track zoo; docs/ci.md "The regression zoo"): planted regressions a
contributor could make (tests/data/zoo/*.patch), each applied to a copy of the tree, built and
judged by the exact-count gates, to publish which gate catches what."""
