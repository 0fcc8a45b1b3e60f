// Allocation counting (harness/alloc_counter.h) sees every library's allocations: malloc,
// operator new and the libraries' own allocators (libxml2's xmlMalloc, Xerces' MemoryManager)
// all end in the replaced allocator. Every adapter allocates on its first message.
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <string>
#include <thread>

#include "harness/alloc_counter.h"
#include "parsers/registry.h"
#include "tests/corpus_fixture.h"

namespace sb {
namespace {

TEST(AllocCounting, HooksAreLinked) { EXPECT_TRUE(alloc_counting_available()); }

TEST(AllocCounting, CountsMallocAndNewAndPeak) {
  alloc_counting_begin();
  void* p = std::malloc(1000);
  auto q = std::make_unique<char[]>(5000);
  // Escape both blocks: compilers may otherwise drop an unused malloc/free pair entirely.
  asm volatile("" : : "r"(p), "r"(q.get()) : "memory");
  std::free(p);
  const AllocStats s = alloc_counting_end();
  EXPECT_EQ(s.allocations, 2u);
  EXPECT_GE(s.bytes, 6000u);
  EXPECT_GE(s.peak_bytes, 6000);
}

TEST(AllocCounting, OtherThreadsAreNotCounted) {
  // The other thread allocates many times and many bytes: if its allocations were counted, both
  // the count and the bytes would show them.
  constexpr int kChildAllocations = 64;
  constexpr std::size_t kChildBytes = 1 << 20;
  alloc_counting_begin();
  std::thread t([] {
    for (int i = 0; i < kChildAllocations; ++i) {
      void* p = std::malloc(kChildBytes);
      asm volatile("" : : "r"(p) : "memory");
      std::free(p);
    }
  });
  t.join();
  const AllocStats s = alloc_counting_end();
  // std::thread's own state is allocated here (on this thread), the child's mallocs are not.
  EXPECT_LE(s.allocations, 2u);
  EXPECT_LT(s.bytes, kChildBytes);
}

// A fresh adapter's first message allocates (parser objects, DOM nodes, buffers): a count of
// zero would mean an allocator the hooks do not see.
TEST(AllocCounting, EveryAdapterAllocatesOnItsFirstMessage) {
  for (const AdapterEntry& a : adapters()) {
    const std::string file = a.info().format == Format::xml ? "soap11-rpc-encoded/complex.call.xml"
                                                            : "jsonrpc/complex.call.json";
    const CorpusEntry* e = test::corpus().find(file);
    ASSERT_NE(e, nullptr) << file;
    MessageBuffer buf(test::corpus().read(*e));
    alloc_counting_begin();
    std::unique_ptr<Adapter> adapter = a.make({});
    Digest d;
    const Status s = adapter->walk(buf, d);
    const AllocStats stats = alloc_counting_end();
    ASSERT_TRUE(s.ok()) << a.info().name;
    EXPECT_GT(stats.allocations, 0u) << a.info().name;
    EXPECT_GT(stats.peak_bytes, 0) << a.info().name;
  }
}

}  // namespace
}  // namespace sb
