// JSON-RPC 2.0 batches (the specification's section 6, its examples in section 7): the server
// answers them (server/rpc_endpoint.cpp), the client sends them and matches the answers by id
// (client/jsonrpc_batch.h, RpcClient::call_batch), and `soapbench call --batch` / `load --batch`
// send them through the real server; the batch's member count is bounded by Limits::max_members.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <string>
#include <vector>

#include "client/http_client.h"
#include "client/jsonrpc_batch.h"
#include "codecs/jsonrpc_id.h"
#include "core/limits.h"
#include "tests/server_fixture.h"

namespace sb::server_test {
namespace {

using testing::HasSubstr;

constexpr const char* kAdd12 = R"({"jsonrpc":"2.0","method":"add","params":[1,2],"id":"1"})";

// POSTs `body` to /jsonrpc of a fresh connection to `s`.
Response post_jsonrpc(Server& s, const std::string& body) {
  Conn c(s.server.port());
  Response res = c.send(post(Family::jsonrpc, body));
  EXPECT_FALSE(c.error()) << c.error().message();
  return res;
}

// The specification's mixed example: answers in member order, none for the notifications, an
// error object (id null) for the member that is no request, method not found with its id.
TEST(JsonRpcBatch, ServerAnswersEachMemberInOrder) {
  Server s(quick_config());
  const std::string batch =
      std::string("[") + kAdd12 + R"(,{"jsonrpc":"2.0","method":"sendInt","params":[7]},)" +
      R"({"jsonrpc":"2.0","method":"concat","params":["a","b","c"],"id":"2"},{"foo":"boo"},)" +
      R"({"jsonrpc":"2.0","method":"foo.get","params":{"name":"myself"},"id":"5"},)" +
      R"({"jsonrpc":"2.0","method":"add","params":[1],"id":9}])";
  const Response res = post_jsonrpc(s, batch);
  EXPECT_EQ(res.result_int(), 200);
  EXPECT_EQ(res[http::field::content_type], "application/json");
  const auto answers = rpc::json_array_items(res.body());
  ASSERT_TRUE(answers.has_value()) << res.body();
  ASSERT_EQ(answers->size(), 5u) << res.body();
  EXPECT_EQ((*answers)[0], R"({"jsonrpc":"2.0","result":3,"id":"1"})");
  EXPECT_EQ((*answers)[1], R"({"jsonrpc":"2.0","result":"abc","id":"2"})");
  EXPECT_THAT(std::string((*answers)[2]), HasSubstr(R"("code":-32600)"));
  EXPECT_THAT(std::string((*answers)[2]), testing::EndsWith(R"("id":null})"));
  EXPECT_THAT(std::string((*answers)[3]), HasSubstr(R"("code":-32601)"));
  EXPECT_THAT(std::string((*answers)[3]), testing::EndsWith(R"("id":"5"})"));
  EXPECT_THAT(std::string((*answers)[4]), HasSubstr(R"("code":-32602)"));
  EXPECT_THAT(std::string((*answers)[4]), testing::EndsWith(R"("id":9})"));
}

// The batch as a whole: not JSON (one parse error), empty or over the bound (one invalid
// request), all notifications (204, no body), members that are no requests (one error each).
TEST(JsonRpcBatch, ServerAnswersTheWholeBatchWhereTheSpecificationSays) {
  Server s(quick_config());
  Response res = post_jsonrpc(s, std::string("[") + kAdd12 + R"(,{"jsonrpc":"2.0","method")");
  EXPECT_THAT(res.body(), testing::StartsWith(R"({"jsonrpc":"2.0","error":{"code":-32700,)"));
  EXPECT_THAT(res.body(), testing::EndsWith(R"("id":null})"));
  res = post_jsonrpc(s, " [ ] ");
  EXPECT_THAT(res.body(), testing::StartsWith(R"({"jsonrpc":"2.0","error":{"code":-32600,)"));
  std::string over = "[";
  for (std::size_t i = 0; i <= Limits{}.max_members; ++i)
    over += std::string(i ? "," : "") + kAdd12;
  res = post_jsonrpc(s, over + "]");
  EXPECT_THAT(res.body(), HasSubstr(R"("code":-32600,"message":"invalid request: more than 1024)"));
  res = post_jsonrpc(s, R"([{"jsonrpc":"2.0","method":"sendInt","params":[1]},)"
                        R"({"jsonrpc":"2.0","method":"noSuch","params":[]}])");
  EXPECT_EQ(res.result_int(), 204);
  EXPECT_EQ(res.body(), "");
  EXPECT_EQ(res.count(http::field::content_type), 0u);
  res = post_jsonrpc(s, "[1,2,3]");
  const auto answers = rpc::json_array_items(res.body());
  ASSERT_TRUE(answers.has_value()) << res.body();
  ASSERT_EQ(answers->size(), 3u);
  for (std::string_view a : *answers) EXPECT_THAT(std::string(a), HasSubstr(R"("code":-32600)"));
  // The stored getChain answer inside a batch, as alone.
  res = post_jsonrpc(s, R"([{"jsonrpc":"2.0","method":"getChain","params":[],"id":3}])");
  ASSERT_TRUE(rpc::json_array_items(res.body()).has_value()) << res.body().substr(0, 200);
  const std::string member((*rpc::json_array_items(res.body()))[0]);
  const Response alone =
      post_jsonrpc(s, R"({"jsonrpc":"2.0","method":"getChain","params":[],"id":3})");
  EXPECT_EQ(canonical(member, Family::jsonrpc, "getChain"),
            canonical(alone.body(), Family::jsonrpc, "getChain"));
}

ClientConfig jsonrpc_client(const Server& s) {
  ClientConfig config;
  config.url = s.server.base_url();
  config.family = Family::jsonrpc;
  return config;
}

// RpcClient sends a batch and gives the answers in member order, typed by each member's method
// (getRate's double, echoBase64's bytes), none for a notification.
TEST(JsonRpcBatch, ClientSendsABatchAndReadsItsAnswers) {
  Server s(quick_config());
  RpcClient client(jsonrpc_client(s));
  const std::vector<BatchMember> members = {
      {make_call("getRate", {Value::string("USA"), Value::string("japan")})},
      {make_call("sendInt", {Value::integer(1)}), true},
      {make_call("echoBase64", {Value::base64("hi")})},
      {make_call("add", {Value::integer(2), Value::integer(3)})}};
  const CallResult r = client.call_batch(members);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.http_status, 200);
  ASSERT_EQ(r.response.kind, rpc::MessageKind::batch);
  ASSERT_EQ(r.response.batch.size(), 3u);
  EXPECT_EQ(rpc::to_canonical_json(r.response.batch[0]),
            expected_response("getRate", Value::floating(1.25)));
  EXPECT_EQ(rpc::to_canonical_json(r.response.batch[1]),
            expected_response("echoBase64", Value::base64("hi")));
  EXPECT_EQ(rpc::to_canonical_json(r.response.batch[2]),
            expected_response("add", Value::integer(5)));
  // Notifications only: the server's 204, an empty batch.
  const CallResult quiet = client.call_batch({{make_call("sendInt", {Value::integer(2)}), true}});
  ASSERT_TRUE(quiet.ok) << quiet.error;
  EXPECT_EQ(quiet.http_status, 204);
  EXPECT_TRUE(quiet.response.batch.empty());
}

// Answers matched by id whatever their order; one missing, twice or unknown is an error.
TEST(JsonRpcBatch, AnswersAreMatchedByTheirIds) {
  const std::vector<BatchMember> members = {{make_call("add")}, {make_call("concat")}};
  std::unique_ptr<Adapter> adapter = make_adapter("rapidjson/dom");
  rpc::Message out;
  EXPECT_EQ(decode_batch_answer(*adapter,
                                R"([{"jsonrpc":"2.0","result":"ab","id":8},)"
                                R"({"jsonrpc":"2.0","result":3,"id":7}])",
                                members, 7, nullptr, out),
            "");
  ASSERT_EQ(out.batch.size(), 2u);
  EXPECT_EQ(rpc::to_canonical_json(out.batch[0]), expected_response("add", Value::integer(3)));
  EXPECT_EQ(rpc::to_canonical_json(out.batch[1]), expected_response("concat", Value::string("ab")));
  EXPECT_EQ(decode_batch_answer(*adapter, R"([{"jsonrpc":"2.0","result":3,"id":7}])", members, 7,
                                nullptr, out),
            "no answer to member 2");
  EXPECT_THAT(decode_batch_answer(*adapter,
                                  R"([{"jsonrpc":"2.0","result":3,"id":7},)"
                                  R"({"jsonrpc":"2.0","result":3,"id":7}])",
                                  members, 7, nullptr, out),
              HasSubstr("answers member 1 again"));
  EXPECT_THAT(decode_batch_answer(*adapter, R"([{"jsonrpc":"2.0","result":3,"id":70}])", members, 7,
                                  nullptr, out),
              HasSubstr("which no member has"));
}

// The raw splitter: strings holding brackets and commas, whitespace, broken structure.
TEST(JsonRpcBatch, ArrayItemsAreSplitByStructure) {
  const auto items = rpc::json_array_items(" [ {\"a\":\"],[\\\"\"} ,\n[1,[2]], 3 ,\"x\" ] \n");
  ASSERT_TRUE(items.has_value());
  EXPECT_EQ(*items,
            (std::vector<std::string_view>{"{\"a\":\"],[\\\"\"}", "[1,[2]]", "3", "\"x\""}));
  EXPECT_FALSE(rpc::json_array_items("[1,2").has_value());
  EXPECT_FALSE(rpc::json_array_items("[1,,2]").has_value());
  EXPECT_FALSE(rpc::json_array_items("[1] x").has_value());
  EXPECT_FALSE(rpc::json_array_items("{}").has_value());
  EXPECT_TRUE(rpc::json_array_items("[]")->empty());
}

// A decoded batch (compare, decode) has the server's bound, whatever the JSON adapter.
TEST(JsonRpcBatch, DecodersBoundTheMembersOfABatch) {
  std::string batch = "[";
  for (std::size_t i = 0; i <= Limits{}.max_members; ++i)
    batch += std::string(i ? "," : "") + kAdd12;
  batch += "]";
  for (const AdapterEntry& entry : adapters()) {
    if (entry.info().format != Format::json) continue;
    SCOPED_TRACE(entry.info().name);
    std::unique_ptr<Adapter> adapter = entry.make(Limits{});
    MessageBuffer buffer(batch);
    rpc::DecodeContext context;
    context.batch = true;
    rpc::Message m;
    DecodeReport report;
    const Status status = adapter->decode(buffer, context, m, report);
    EXPECT_FALSE(status.ok());
    EXPECT_THAT(status.describe(), HasSubstr("more than 1024 messages in one batch"));
  }
}

std::string run_soapbench(const std::string& args) {
  const std::string cmd = std::string(SB_SOAPBENCH_EXE) + " " + args + " 2>&1";
  std::string out;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (pipe == nullptr) return out;
  std::array<char, 4096> buf{};
  std::size_t n = 0;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) out.append(buf.data(), n);
  pclose(pipe);
  return out;
}

// `soapbench call --batch` and `soapbench load --batch` through the real server.
TEST(JsonRpcBatch, CallAndLoadSendBatches) {
  Server s(quick_config());
  const std::string url = s.server.base_url();
  EXPECT_EQ(run_soapbench("call --url " + url + " --protocol jsonrpc --batch 2 add 2 3"),
            R"({"kind":"batch","messages":[{"kind":"response","method":"add","result":5},)"
            R"({"kind":"response","method":"add","result":5}]})"
            "\n");
  const std::string json = testing::TempDir() + "/batch-load.json";
  const std::string out = run_soapbench("load --url " + url +
                                        " --protocol jsonrpc --call getRate --batch 4 "
                                        "--duration 0.2 --warmup 0 --decode-every 1 --json " +
                                        json);
  EXPECT_THAT(out, HasSubstr(" 0 errors")) << out;
  std::ifstream in(json);
  const std::string doc((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_THAT(doc, HasSubstr(R"("batch":4)"));
}

}  // namespace
}  // namespace sb::server_test
