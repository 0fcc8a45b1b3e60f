// tools/icount --plant-no-reuse: a planted change for the cache-aware cost's gate test, loaded in
// front of the determinism shim (tools/icount_shim.c): freed blocks are never used again, as an
// allocator without an arena spreads a structure over fresh memory. About the same instructions
// (a free does nothing, the next malloc carves a new block), colder caches. Test-only: it leaks.
#include <stddef.h>

void __libc_free(void* user) { (void)user; }
void free(void* user) { (void)user; }
