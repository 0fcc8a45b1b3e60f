"""The Digest's hash, XXH3 64 with seed 0 (docs/corpus.md), and its hex form."""

import xxhash  # Debian python3-xxhash, the same xxHash library the C++ Digest links


def event_hash(data):
    """XXH3 64 (seed 0) of the canonical event stream `data` (bytes)."""
    return xxhash.xxh3_64_intdigest(data)


def hex64(h):
    return '%016x' % h
