// AnswerParser: the HTTP response parser of a load connection (load/load_connection.h). It
// keeps only what judging an answer needs, the status, keep-alive and the body, and appends the
// body to a string the connection reuses: once warmed up, an answer allocates nothing (Beast's
// response_parser<string_body> allocates every header field and a body string per answer).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include <boost/beast/http/basic_parser.hpp>

namespace sb {

class AnswerParser final : public boost::beast::http::basic_parser<false> {
 public:
  // A parser of one answer whose body goes to `body` (cleared now; it must outlive the parser).
  explicit AnswerParser(std::string& body);

  // The HTTP status code (0 before the status line).
  int status() const { return status_; }
  // The answer's Content-Encoding ("gzip"), empty when none.
  const std::string& content_encoding() const { return coding_; }

 private:
  using error_code = boost::beast::error_code;
  using string_view = boost::beast::string_view;

  void on_request_impl(boost::beast::http::verb, string_view, string_view, int,
                       error_code&) override {}
  void on_response_impl(int code, string_view, int, error_code&) override;
  void on_field_impl(boost::beast::http::field f, string_view, string_view value,
                     error_code&) override;
  void on_header_impl(error_code&) override {}
  void on_body_init_impl(const boost::optional<std::uint64_t>& length, error_code&) override;
  std::size_t on_body_impl(string_view bytes, error_code&) override;
  void on_chunk_header_impl(std::uint64_t, string_view, error_code&) override {}
  std::size_t on_chunk_body_impl(std::uint64_t, string_view bytes, error_code&) override;
  void on_finish_impl(error_code&) override {}

  std::string& body_;   // the answer's body (chunked: decoded)
  std::string coding_;  // its Content-Encoding, empty when none
  int status_ = 0;      // the HTTP status code
};

}  // namespace sb
