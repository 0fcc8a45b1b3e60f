// The allocator entry points, replaced for counting (see alloc_counter.h). Linked only into
// executables that measure allocations, as an object library so the linker keeps it.
#include <malloc.h>

#include <cerrno>
#include <cstddef>

#include "harness/alloc_state.h"

namespace sb {
bool alloc_hooks_linked() { return true; }
}  // namespace sb

#if SB_ASAN
// Under ASan the sanitizer owns malloc; it offers hooks instead of interposition. Declared
// here because g++ does not ship <sanitizer/allocator_interface.h> (its libasan exports them).
extern "C" {
int __sanitizer_install_malloc_and_free_hooks(void (*malloc_hook)(const volatile void*,
                                                                  std::size_t),
                                              void (*free_hook)(const volatile void*));
std::size_t __sanitizer_get_allocated_size(const volatile void* p);
}

namespace {
void on_malloc(const volatile void* ptr, std::size_t size) {
  if (ptr != nullptr) sb::note_alloc(size, size);
}
void on_free(const volatile void* ptr) {
  if (ptr != nullptr) {
    sb::note_free(__sanitizer_get_allocated_size(ptr));
  }
}
struct InstallHooks {
  InstallHooks() { __sanitizer_install_malloc_and_free_hooks(on_malloc, on_free); }
} install_hooks;
}  // namespace

#else
// glibc's own implementations, which the replacements forward to.
extern "C" {
void* __libc_malloc(std::size_t size);
void* __libc_calloc(std::size_t n, std::size_t size);
void* __libc_realloc(void* ptr, std::size_t size);
void* __libc_memalign(std::size_t alignment, std::size_t size);
void __libc_free(void* ptr);
}

namespace {
inline void* counted(void* p, std::size_t requested) {
  if (p != nullptr) sb::note_alloc(requested, malloc_usable_size(p));
  return p;
}
}  // namespace

extern "C" {

void* malloc(std::size_t size) { return counted(__libc_malloc(size), size); }

void* calloc(std::size_t n, std::size_t size) { return counted(__libc_calloc(n, size), n * size); }

void* realloc(void* ptr, std::size_t size) {
  if (ptr != nullptr) sb::note_free(malloc_usable_size(ptr));
  void* p = __libc_realloc(ptr, size);
  if (p == nullptr && ptr != nullptr && size != 0) {
    sb::note_alloc(0, malloc_usable_size(ptr));  // failed: the old block is still live
    return nullptr;
  }
  return counted(p, size);
}

void free(void* ptr) {
  if (ptr == nullptr) return;
  sb::note_free(malloc_usable_size(ptr));
  __libc_free(ptr);
}

void* memalign(std::size_t alignment, std::size_t size) {
  return counted(__libc_memalign(alignment, size), size);
}

void* aligned_alloc(std::size_t alignment, std::size_t size) {
  return counted(__libc_memalign(alignment, size), size);
}

int posix_memalign(void** out, std::size_t alignment, std::size_t size) {
  if (alignment % sizeof(void*) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
  void* p = counted(__libc_memalign(alignment, size), size);
  if (p == nullptr) return ENOMEM;
  *out = p;
  return 0;
}

}  // extern "C"
#endif
