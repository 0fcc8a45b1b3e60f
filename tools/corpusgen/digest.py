"""FNV-1a 64 and the Digest record (docs/corpus.md)."""

FNV_OFFSET = 0xcbf29ce484222325
FNV_PRIME = 0x100000001b3
MASK64 = 0xFFFFFFFFFFFFFFFF


def fnv1a64(data, h=FNV_OFFSET):
    # Eight bytes per iteration, reduced mod 2**64 once: the low 64 bits of the product
    # depend only on the low 64 bits of the factors, so this equals the byte-wise loop.
    p = FNV_PRIME
    n = len(data) & ~7
    it = iter(memoryview(data)[:n])
    for a, b, c, d, e, f, g, i in zip(it, it, it, it, it, it, it, it):
        h = ((((((((((((((((h ^ a) * p) ^ b) * p) ^ c) * p) ^ d) * p) ^ e) * p) ^ f) * p)
                ^ g) * p) ^ i) * p) & MASK64
    for b in data[n:]:
        h = ((h ^ b) * p) & MASK64
    return h


def hex64(h):
    return '%016x' % h
