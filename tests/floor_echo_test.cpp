// floor_echo (bench/floor_echo.cpp), the raw loopback floor's server: in each wait mode, and
// pinned to a CPU as roundtrip_bench's same-cpu rows start it, it echoes every message byte for
// byte, small and large, over one connection and over a second one after the first closed.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cctype>
#include <chrono>
#include <string>
#include <vector>

#include "bench/floor_wire.h"
#include "harness/peer_process.h"

namespace {

using namespace std::chrono_literals;
namespace fw = sb::floor_wire;

// The port floor_echo printed.
std::uint16_t port_of(const sb::peers::PeerProcess& echo) {
  const std::string& url = echo.url();
  return static_cast<std::uint16_t>(std::stoi(url.substr(url.rfind(':') + 1)));
}

// Sends each size once over one connection and checks the echo.
void ping_pong(std::uint16_t port, fw::Wait wait, const std::vector<std::size_t>& sizes) {
  const int fd = fw::connect_loopback(port, 5s);
  ASSERT_GE(fd, 0);
  std::string echo;
  for (std::size_t bytes : sizes) {
    const std::string frame = fw::make_frame(bytes);
    ASSERT_TRUE(fw::send_all(fd, frame, wait, 5s)) << bytes;
    ASSERT_TRUE(fw::recv_frame(fd, echo, wait, bytes, 5s)) << bytes;
    EXPECT_EQ(echo, frame) << bytes;
  }
  ::close(fd);
}

class FloorEchoTest : public ::testing::TestWithParam<std::vector<std::string>> {};

TEST_P(FloorEchoTest, EchoesEveryMessage) {
  sb::peers::PeerProcess echo(SB_FLOOR_ECHO_EXE, GetParam(), 10s);
  const auto wait = fw::parse_wait(GetParam()[1]);
  ASSERT_TRUE(wait.has_value());
  const std::uint16_t port = port_of(echo);
  ping_pong(port, *wait, {0, 300, 2500, 450000, 300});
  ping_pong(port, *wait, {7500});  // the next connection is served after the first closed
}

// Test names: the mode, then "_cpuN" when pinned.
std::string mode_name(const ::testing::TestParamInfo<std::vector<std::string>>& info) {
  std::string name = info.param[1];
  if (info.param.size() > 3) name += "_cpu" + info.param[3];
  for (char& c : name) c = std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Modes, FloorEchoTest,
                         ::testing::Values(std::vector<std::string>{"--mode", "blocking"},
                                           std::vector<std::string>{"--mode", "busy-poll"},
                                           std::vector<std::string>{"--mode", "blocking", "--cpu",
                                                                    "0"}),
                         mode_name);

TEST(FloorWire, ModeNamesRoundTrip) {
  for (fw::Wait w : {fw::Wait::blocking, fw::Wait::busy_poll}) {
    EXPECT_EQ(fw::parse_wait(fw::wait_name(w)), w);
  }
  EXPECT_FALSE(fw::parse_wait("spin").has_value());
}

TEST(FloorEcho, RefusesAnUnknownMode) {
  const sb::peers::ChildRun run = sb::peers::run_child(SB_FLOOR_ECHO_EXE, {"--mode", "spin"}, 10s);
  EXPECT_EQ(run.exit_code, 2);
}

}  // namespace
