// tools/icount's determinism shim, LD_PRELOADed into parse_bench under callgrind. It pins what
// would otherwise make instruction counts differ between runs, checkouts and machines of the
// same build, none of which is the work being measured:
// - time(), getloadavg(), arc4random*(), getrandom(): libxml2 seeds its hashes from time(NULL),
//   Expat salts its hash per document, Google Benchmark prints the load average.
// - /dev/urandom and /dev/random, opened as /dev/zero: Poco seeds the hash of its XML name pool
//   from /dev/urandom for every document it parses (collisions, and so counts, varied by a few
//   dozen instructions a call from run to run).
// - the heap. glibc's malloc costs and addresses follow the heap's whole history (the corpus
//   manifest, every earlier benchmark, the length of the version string): a realloc extends in
//   place or copies, a request walks bins of other sizes, memchr/memcpy take other paths at
//   other alignments and page offsets. Adding a corpus file moved counts by up to 18% that way.
//   Here every block comes from a size class at a fixed cost per call, at a fixed alignment and
//   never near a page end, so a benchmark's count depends only on the requests it makes.
// parse_bench defines malloc & co. itself (harness/alloc_hooks.cpp counts allocations) and
// forwards to glibc's __libc_* entry points; defining those here (and every other allocation
// entry point, so no block of glibc's heap is ever handed to this free) routes every
// allocation of the process, the libraries' included, through this allocator.
#define _GNU_SOURCE  // O_TMPFILE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

// --- fixed time and randomness -----------------------------------------------------------

static void fill(void* buf, size_t n) {
  static const unsigned char pattern[8] = {0x5a, 0x3c, 0x96, 0x0f, 0xe1, 0x2d, 0x78, 0xb4};
  for (size_t i = 0; i < n; ++i) ((unsigned char*)buf)[i] = pattern[i % 8];
}
time_t time(time_t* t) {
  if (t) *t = 1700000000;
  return 1700000000;
}
int getloadavg(double la[], int n) {
  for (int i = 0; i < n; ++i) la[i] = 0.0;
  return n;
}
void arc4random_buf(void* buf, size_t n) { fill(buf, n); }
uint32_t arc4random(void) {
  uint32_t v;
  fill(&v, sizeof v);
  return v;
}
uint32_t arc4random_uniform(uint32_t upper) { return upper ? arc4random() % upper : 0; }
ssize_t getrandom(void* buf, size_t n, unsigned int flags) {
  (void)flags;
  fill(buf, n);
  return (ssize_t)n;
}

// The randomness devices read as /dev/zero; every other path opened as asked. The open family
// is replaced whole (open, openat, their 64-bit and fortified names), through the system call.
static const char* unrandom(const char* path) {
  if (path != NULL && (strcmp(path, "/dev/urandom") == 0 || strcmp(path, "/dev/random") == 0)) {
    return "/dev/zero";
  }
  return path;
}
static int open_at(int dir, const char* path, int flags, mode_t mode) {
  return (int)syscall(SYS_openat, dir, unrandom(path), flags, mode);
}
// The mode argument is there only when the flags ask for a file to be made.
static int has_mode(int flags) { return (flags & (O_CREAT | O_TMPFILE)) != 0; }
int open(const char* path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  const mode_t mode = has_mode(flags) ? (mode_t)va_arg(ap, int) : 0;
  va_end(ap);
  return open_at(AT_FDCWD, path, flags, mode);
}
int open64(const char* path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  const mode_t mode = has_mode(flags) ? (mode_t)va_arg(ap, int) : 0;
  va_end(ap);
  return open_at(AT_FDCWD, path, flags, mode);
}
int openat(int dir, const char* path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  const mode_t mode = has_mode(flags) ? (mode_t)va_arg(ap, int) : 0;
  va_end(ap);
  return open_at(dir, path, flags, mode);
}
int openat64(int dir, const char* path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  const mode_t mode = has_mode(flags) ? (mode_t)va_arg(ap, int) : 0;
  va_end(ap);
  return open_at(dir, path, flags, mode);
}
int __open_2(const char* path, int flags) { return open_at(AT_FDCWD, path, flags, 0); }
int __open64_2(const char* path, int flags) { return open_at(AT_FDCWD, path, flags, 0); }

// --- the allocator -----------------------------------------------------------------------
// Block = 16-byte header + user bytes, so every user pointer is 16 bytes past a 64-byte
// boundary. Small classes (64-byte steps to 1920 bytes, then 3840) are carved from pages of
// their own and never use a page's last 256 bytes: glibc's AVX2 string functions take a
// slower path when a read starts that close to a page end, and where in its page a small block
// lands depends on history; this way no pointer into a small block starts there. Page classes
// (4 KiB to 256 KiB, powers of two) start on a page, so any pointer into them sits at an offset
// fixed by the request. Larger blocks are mapped one by one. Freed blocks are kept per class
// (LIFO). The header holds the class (or a mapping's size) and, for memalign's blocks, the
// distance back to the block's own start.

enum {
  kHeader = 16,      // bytes before every user pointer
  kStep = 64,        // small classes' granularity
  kSmallSteps = 30,  // small classes 64 .. 1920 bytes; class 30 is kPageUse
  kPage = 4096,      // page size
  kPageUse = 3840,   // bytes of a page small blocks use (the last 256 stay free)
  kPageClasses = 7,  // 4 KiB .. 256 KiB
  kClasses = kSmallSteps + 1 + kPageClasses,
  kSlab = 4 << 20,  // pages are taken from 4 MiB mappings
};

struct Header {
  size_t cls;     // class index, or the mapping's size (>= kPage) for a mapped block
  size_t offset;  // memalign: bytes from the block's user start to this header's end; else 0
};

static void* free_lists[kClasses];         // freed blocks per class, linked through their header
static unsigned char* run_next[kClasses];  // small classes: next block in the class's page
static unsigned char* run_end[kClasses];   // small classes: end of the page's usable part
static unsigned char* slab_next;           // next free page of the current slab
static unsigned char* slab_end;            // end of the current slab
static volatile char lock_flag;            // one thread at a time (valgrind runs one anyway)

static void lock(void) {
  while (__atomic_test_and_set(&lock_flag, __ATOMIC_ACQUIRE)) {
  }
}
static void unlock(void) { __atomic_clear(&lock_flag, __ATOMIC_RELEASE); }

static size_t class_size(size_t cls) {
  if (cls < kSmallSteps) return (cls + 1) * kStep;
  if (cls == kSmallSteps) return kPageUse;
  return (size_t)kPage << (cls - kSmallSteps - 1);
}

// The class of a block of `total` bytes (header included), or kClasses: map it on its own.
static size_t class_of(size_t total) {
  if (total <= (size_t)kSmallSteps * kStep) return (total + kStep - 1) / kStep - 1;
  if (total <= kPageUse) return kSmallSteps;
  for (size_t cls = kSmallSteps + 1; cls < kClasses; ++cls) {
    if (total <= class_size(cls)) return cls;
  }
  return kClasses;
}

static void* map(size_t n) {
  void* p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return p == MAP_FAILED ? NULL : p;
}

static struct Header* header_of(void* user) { return (struct Header*)user - 1; }

// n bytes of fresh pages (n a multiple of kPage).
static unsigned char* take_pages(size_t n) {
  if ((size_t)(slab_end - slab_next) < n) {
    unsigned char* slab = map(kSlab);  // the rest of the old slab is left unused
    if (slab == NULL) return NULL;
    slab_next = slab;
    slab_end = slab + kSlab;
  }
  unsigned char* p = slab_next;
  slab_next += n;
  return p;
}

static void* carve(size_t cls) {
  const size_t size = class_size(cls);
  if (free_lists[cls] != NULL) {
    void* block = free_lists[cls];
    free_lists[cls] = *(void**)block;
    return block;
  }
  if (cls > kSmallSteps) return take_pages(size);
  if ((size_t)(run_end[cls] - run_next[cls]) < size) {
    unsigned char* page = take_pages(kPage);
    if (page == NULL) return NULL;
    run_next[cls] = page;
    run_end[cls] = page + kPageUse;
  }
  void* block = run_next[cls];
  run_next[cls] += size;
  return block;
}

// A block for `total` bytes (header included): from its class, or mapped on its own.
static struct Header* block_for(size_t total) {
  const size_t cls = class_of(total);
  struct Header* h;
  if (cls == kClasses) {
    const size_t mapped = (total + kPage - 1) & ~(size_t)(kPage - 1);
    if (mapped < total) return NULL;
    h = map(mapped);
    if (h == NULL) return NULL;
    h->cls = mapped;  // a mapping's size is never a class index
  } else {
    lock();
    h = carve(cls);
    unlock();
    if (h == NULL) return NULL;
    h->cls = cls;
  }
  h->offset = 0;
  return h;
}

void* __libc_malloc(size_t n) {
  if (n > (size_t)-1 - kPage) return NULL;
  struct Header* h = block_for(n + kHeader);
  return h == NULL ? NULL : h + 1;
}

// The block a user pointer belongs to (memalign's pointers sit inside one).
static void* block_user(void* user) {
  struct Header* h = header_of(user);
  return h->offset ? (unsigned char*)user - h->offset : user;
}

void __libc_free(void* user) {
  if (user == NULL) return;
  user = block_user(user);
  struct Header* h = header_of(user);
  if (h->cls >= kPage) {
    munmap(h, h->cls);
    return;
  }
  const size_t cls = h->cls;
  lock();
  *(void**)h = free_lists[cls];  // the link overwrites the header: malloc rewrites it
  free_lists[cls] = h;
  unlock();
}

size_t malloc_usable_size(void* user) {
  if (user == NULL) return 0;
  void* base = block_user(user);
  struct Header* h = header_of(base);
  const size_t size = h->cls >= kPage ? h->cls : class_size(h->cls);
  return size - kHeader - (size_t)((unsigned char*)user - (unsigned char*)base);
}

void* __libc_calloc(size_t n, size_t size) {
  if (size != 0 && n > (size_t)-1 / size) return NULL;
  void* p = __libc_malloc(n * size);
  if (p != NULL) memset(p, 0, n * size);
  return p;
}

void* __libc_realloc(void* user, size_t n) {
  if (user == NULL) return __libc_malloc(n);
  const size_t have = malloc_usable_size(user);
  if (n <= have && header_of(user)->offset == 0) return user;  // fits its block: same cost always
  void* p = __libc_malloc(n);
  if (p == NULL) return NULL;
  memcpy(p, user, have < n ? have : n);
  __libc_free(user);
  return p;
}

void* __libc_memalign(size_t alignment, size_t n) {
  if (alignment <= kHeader) return __libc_malloc(n);
  if ((alignment & (alignment - 1)) != 0 || n > (size_t)-1 / 2 - alignment) {
    errno = EINVAL;
    return NULL;
  }
  // At least a page class, so the block starts on a page and the aligned pointer's place in it
  // does not depend on history.
  size_t total = n + alignment + kHeader;
  if (total <= kPageUse) total = kPageUse + 1;
  struct Header* block = block_for(total);
  if (block == NULL) return NULL;
  unsigned char* user = (unsigned char*)(block + 1);
  const uintptr_t at = ((uintptr_t)user + kHeader + alignment - 1) & ~(uintptr_t)(alignment - 1);
  struct Header* h = header_of((void*)at);
  h->cls = 0;
  h->offset = at - (uintptr_t)user;
  return (void*)at;
}

// The entry points parse_bench does not define itself (it forwards the others to __libc_*).
void* malloc(size_t n) { return __libc_malloc(n); }
void free(void* p) { __libc_free(p); }
void* calloc(size_t n, size_t size) { return __libc_calloc(n, size); }
void* realloc(void* p, size_t n) { return __libc_realloc(p, n); }
void* memalign(size_t alignment, size_t n) { return __libc_memalign(alignment, n); }
void* aligned_alloc(size_t alignment, size_t n) { return __libc_memalign(alignment, n); }
void* valloc(size_t n) { return __libc_memalign(4096, n); }
void* pvalloc(size_t n) { return __libc_memalign(4096, (n + 4095) & ~(size_t)4095); }
void* __libc_valloc(size_t n) { return valloc(n); }
void* __libc_pvalloc(size_t n) { return pvalloc(n); }
void* reallocarray(void* p, size_t n, size_t size) {
  if (size != 0 && n > (size_t)-1 / size) {
    errno = ENOMEM;
    return NULL;
  }
  return __libc_realloc(p, n * size);
}
int posix_memalign(void** out, size_t alignment, size_t n) {
  if (alignment % sizeof(void*) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
  void* p = __libc_memalign(alignment, n);
  if (p == NULL) return ENOMEM;
  *out = p;
  return 0;
}
