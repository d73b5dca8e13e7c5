// Chrome trace-event JSON: parsed back with a minimal JSON reader, checked event by event.
#include <catch2/catch.hpp>

#include <cctype>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "instrument/trace_export.hpp"

using namespace instrument;

namespace {

// A minimal JSON value and parser: enough to prove the output is valid JSON and read it back.
struct Json;
using JsonObject = std::map<std::string, Json>;
using JsonArray = std::vector<Json>;
struct Json {
  std::variant<std::nullptr_t, bool, double, std::string, std::shared_ptr<JsonArray>,
               std::shared_ptr<JsonObject>>
      v;
  const Json& operator[](const std::string& k) const {
    return std::get<std::shared_ptr<JsonObject>>(v)->at(k);
  }
  const JsonArray& array() const { return *std::get<std::shared_ptr<JsonArray>>(v); }
  const JsonObject& object() const { return *std::get<std::shared_ptr<JsonObject>>(v); }
  double num() const { return std::get<double>(v); }
  const std::string& str() const { return std::get<std::string>(v); }
};

class Parser {
 public:
  explicit Parser(std::string s) : s_(std::move(s)) {}
  Json parse_document() {
    Json j = value();
    ws();
    if (i_ != s_.size()) throw std::runtime_error("trailing text at " + std::to_string(i_));
    return j;
  }

 private:
  void ws() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  char peek() {
    ws();
    if (i_ >= s_.size()) throw std::runtime_error("unexpected end");
    return s_[i_];
  }
  void expect(char c) {
    if (peek() != c)
      throw std::runtime_error(std::string("expected ") + c + " at " + std::to_string(i_));
    ++i_;
  }
  Json value() {
    const char c = peek();
    if (c == '{') return object();
    if (c == '[') return array();
    if (c == '"') return Json{string()};
    if (s_.compare(i_, 4, "true") == 0) {
      i_ += 4;
      return Json{true};
    }
    if (s_.compare(i_, 5, "false") == 0) {
      i_ += 5;
      return Json{false};
    }
    if (s_.compare(i_, 4, "null") == 0) {
      i_ += 4;
      return Json{nullptr};
    }
    std::size_t used = 0;
    const double d = std::stod(s_.substr(i_, 40), &used);
    if (used == 0) throw std::runtime_error("bad number");
    i_ += used;
    return Json{d};
  }
  Json object() {
    expect('{');
    auto o = std::make_shared<JsonObject>();
    if (peek() == '}') {
      ++i_;
      return Json{o};
    }
    for (;;) {
      std::string k = string();
      expect(':');
      (*o)[k] = value();
      if (peek() == ',') {
        ++i_;
        continue;
      }
      expect('}');
      return Json{o};
    }
  }
  Json array() {
    expect('[');
    auto a = std::make_shared<JsonArray>();
    if (peek() == ']') {
      ++i_;
      return Json{a};
    }
    for (;;) {
      a->push_back(value());
      if (peek() == ',') {
        ++i_;
        continue;
      }
      expect(']');
      return Json{a};
    }
  }
  std::string string() {
    expect('"');
    std::string out;
    while (i_ < s_.size() && s_[i_] != '"') {
      const unsigned char c = static_cast<unsigned char>(s_[i_]);
      if (c < 0x20) throw std::runtime_error("raw control character in a string");
      if (c != '\\') {
        out.push_back(s_[i_++]);
        continue;
      }
      const char e = s_.at(i_ + 1);
      i_ += 2;
      switch (e) {
        case '"': out.push_back('"'); break;
        case '\\': out.push_back('\\'); break;
        case '/': out.push_back('/'); break;
        case 'n': out.push_back('\n'); break;
        case 't': out.push_back('\t'); break;
        case 'r': out.push_back('\r'); break;
        case 'b': out.push_back('\b'); break;
        case 'f': out.push_back('\f'); break;
        case 'u':
          out.push_back(static_cast<char>(std::stoi(s_.substr(i_, 4), nullptr, 16)));
          i_ += 4;
          break;
        default: throw std::runtime_error("bad escape");
      }
    }
    expect('"');
    return out;
  }
  std::string s_;
  std::size_t i_ = 0;
};

GatheredTrace sample_trace() {
  GatheredTrace t;
  t.kinds = {"compute", "send \"halo\"\\x", "tab\there\x01", "ünïcode"};
  t.per_rank.resize(2);
  t.per_rank[0] = {TraceEvent{0.0, 1.5e-3, 0, -1, 0, 1000},
                   TraceEvent{1.5e-3, 1.75e-3, 1, 1, 4096, 0, 42, 3}};
  t.per_rank[1] = {TraceEvent{2e-6, 3e-6, 2, 0, 8, 0}, TraceEvent{0.5, 0.5000005, 3, -1, 0, 7},
                   TraceEvent{1.0, 2.0, 9, -1, 0, 0}};  // 9: unknown kind
  t.dropped = {0, 0};
  return t;
}

}  // namespace

TEST_CASE("json_escape escapes quotes, backslashes and control characters") {
  CHECK(json_escape("plain") == "plain");
  CHECK(json_escape("a\"b") == "a\\\"b");
  CHECK(json_escape("a\\b") == "a\\\\b");
  CHECK(json_escape("a\nb\tc") == "a\\nb\\tc");
  CHECK(json_escape(std::string("\x01", 1)) == "\\u0001");
  CHECK(json_escape("ü") == "ü");
}

TEST_CASE("Chrome trace JSON: one X event per interval, tid = rank, microseconds") {
  std::ostringstream out;
  const GatheredTrace t = sample_trace();
  write_chrome_trace(out, t);
  const Json doc = Parser(out.str()).parse_document();
  const JsonArray& events = doc["traceEvents"].array();
  std::vector<const Json*> complete, meta;
  for (const auto& e : events) (e["ph"].str() == "X" ? complete : meta).push_back(&e);
  REQUIRE(meta.size() == 2);
  CHECK((*meta[1])["args"]["name"].str() == "rank 1");
  REQUIRE(complete.size() == 5);

  const Json& first = *complete[0];
  CHECK(first["name"].str() == "compute");
  CHECK(first["pid"].num() == 0);
  CHECK(first["tid"].num() == 0);
  CHECK(first["ts"].num() == Approx(0.0));
  CHECK(first["dur"].num() == Approx(1500.0));
  CHECK(first["args"]["work"].num() == 1000);
  CHECK(first["args"]["peer"].num() == -1);

  const Json& send = *complete[1];
  CHECK(send["name"].str() == "send \"halo\"\\x");  // escaped on the way out, intact back
  CHECK(send["ts"].num() == Approx(1500.0));
  CHECK(send["dur"].num() == Approx(250.0));
  CHECK(send["args"]["peer"].num() == 1);
  CHECK(send["args"]["bytes"].num() == 4096);
  CHECK(send["args"]["tag"].num() == 42);
  CHECK(send["args"]["request"].num() == 3);
  CHECK(first["args"]["tag"].num() == -1);
  CHECK(first["args"]["request"].num() == -1);

  const Json& tiny = *complete[2];
  CHECK(tiny["tid"].num() == 1);
  CHECK(tiny["name"].str() == "tab\there\x01");
  CHECK(tiny["ts"].num() == Approx(2.0));
  CHECK(tiny["dur"].num() == Approx(1.0));
  CHECK((*complete[3])["name"].str() == "ünïcode");
  CHECK((*complete[3])["dur"].num() == Approx(0.5).margin(1e-3));  // nanosecond digits kept
  CHECK((*complete[4])["name"].str() == "kind 9");
}

TEST_CASE("an event's phase name comes from its kind") {
  const GatheredTrace t = sample_trace();
  CHECK(t.phase_name(t.per_rank[0][0]) == "compute");
  CHECK(t.phase_name(t.per_rank[1][1]) == "ünïcode");
  CHECK_THROWS_AS(t.phase_name(t.per_rank[1][2]), std::out_of_range);  // kind 9
  CHECK(t.kind_of("tab\there\x01") == 2);
  CHECK(t.kind_of("no such phase") == -1);
}

TEST_CASE("an empty trace is still a valid document") {
  std::ostringstream out;
  write_chrome_trace(out, GatheredTrace{});
  const Json doc = Parser(out.str()).parse_document();
  CHECK(doc["traceEvents"].array().empty());
}
