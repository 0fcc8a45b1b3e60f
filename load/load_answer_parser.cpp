#include "load/load_answer_parser.h"

namespace sb {

AnswerParser::AnswerParser(std::string& body) : body_(body) { body_.clear(); }

void AnswerParser::on_response_impl(int code, string_view, int, error_code&) { status_ = code; }

void AnswerParser::on_field_impl(boost::beast::http::field f, string_view, string_view value,
                                 error_code&) {
  if (f == boost::beast::http::field::content_encoding) coding_.assign(value.data(), value.size());
}

void AnswerParser::on_body_init_impl(const boost::optional<std::uint64_t>& length, error_code&) {
  if (length) body_.reserve(static_cast<std::size_t>(*length));
}

std::size_t AnswerParser::on_body_impl(string_view bytes, error_code&) {
  body_.append(bytes.data(), bytes.size());
  return bytes.size();
}

std::size_t AnswerParser::on_chunk_body_impl(std::uint64_t, string_view bytes, error_code&) {
  body_.append(bytes.data(), bytes.size());
  return bytes.size();
}

}  // namespace sb
