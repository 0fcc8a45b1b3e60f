// How a peer server stops (docs/peers.md): SIGINT and SIGTERM are blocked before any thread
// starts, so every thread inherits the block, and the main thread takes them with sigwait.
#pragma once

#include <pthread.h>

#include <csignal>

namespace sb::peers {

// Blocks SIGINT and SIGTERM in the calling thread (and the threads it starts); returns the set.
inline sigset_t block_stop_signals() {
  sigset_t stop;
  sigemptyset(&stop);
  sigaddset(&stop, SIGINT);
  sigaddset(&stop, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop, nullptr);
  return stop;
}

// Waits until one of `stop` arrives (after block_stop_signals).
inline void wait_for_stop(const sigset_t& stop) {
  int sig = 0;
  sigwait(&stop, &sig);
}

}  // namespace sb::peers
