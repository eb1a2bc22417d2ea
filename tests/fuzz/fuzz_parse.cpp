// The parsers of command-line values: integers, lists, ranges, seconds, --shard I/K, Topswops
// decks (then played), Bulgarian partitions (then traced) and Babylon chip counts. The first
// byte picks the parser, the rest is the text. Bad text may only be refused with UsageError,
// and what is accepted must be what the text says.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <numeric>
#include <string>
#include <string_view>
#include <vector>

#include "core/babylon.hpp"
#include "core/deck.hpp"
#include "core/partition.hpp"
#include "host/babylon/start.hpp"
#include "host/bulgarian/trace.hpp"
#include "host/common/error.hpp"
#include "host/common/parse.hpp"
#include "host/job/driver.hpp"
#include "host/topswops/play.hpp"
#include "tests/fuzz/support.hpp"

namespace {

using piles::fuzz::require;

// The bounds the commands pass: --threads, Topswops N, --bound, the full 64-bit range.
struct Bounds {
  std::int64_t lo, hi;
};
constexpr Bounds bounds[] = {
    {0, 1 << 16},
    {1, 24},
    {0, 1'000'000},
    {std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max()}};

// An accepted integer is written as one: an optional sign, then digits only.
bool integer_text(std::string_view text) {
  if (!text.empty() && (text[0] == '+' || text[0] == '-')) text.remove_prefix(1);
  return !text.empty() && text.find_first_not_of("0123456789") == std::string_view::npos;
}

void check_int(std::string_view text, Bounds b) {
  const std::int64_t v = piles::parse_int(text, "value", b.lo, b.hi);
  require(v >= b.lo && v <= b.hi, "parse_int stays in its range");
  require(integer_text(text), "parse_int accepts only integers");
}

void parse(std::uint8_t which, std::string_view text) {
  const Bounds b = bounds[which / 8 % 4];
  switch (which % 8) {
    case 0:
      check_int(text, b);
      break;
    case 1: {
      const auto values = piles::parse_int_list(text, "list", b.lo, b.hi);
      std::size_t items = 0;  // runs of characters other than commas and white space
      for (std::size_t i = 0; i < text.size(); ++i)
        items += std::string_view(", \t\n").find(text[i]) == std::string_view::npos &&
                 (i == 0 || std::string_view(", \t\n").find(text[i - 1]) != std::string_view::npos);
      require(items == values.size(), "a list has one value per item");
      for (const auto v : values) require(v >= b.lo && v <= b.hi, "list values stay in range");
      break;
    }
    case 2: {
      const piles::IntRange r = piles::parse_int_range(text, "n", b.lo, b.hi);
      require(b.lo <= r.first && r.first <= r.last && r.last <= b.hi, "a range is ordered");
      break;
    }
    case 3: {
      const double s = piles::parse_seconds(text, "--slice");
      require(std::isfinite(s) && s > 0 && s <= 1e9, "seconds are positive and finite");
      break;
    }
    case 4: {
      const int max_count = static_cast<int>(b.hi % (1 << 20)) + 1;
      const piles::job::Shard shard = piles::job::parse_shard(text, max_count);
      require(0 <= shard.index && shard.index < shard.count && shard.count <= max_count,
              "a shard is one of its count");
      break;
    }
    case 5: {
      const std::vector<int> deck = piles::topswops::parse_deck(text);
      std::vector<int> sorted = deck;
      std::sort(sorted.begin(), sorted.end());
      std::vector<int> cards(deck.size());
      std::iota(cards.begin(), cards.end(), 1);
      require(sorted == cards && deck.size() <= piles::deck::max_cards,
              "a deck is a permutation of 1..n");
      const piles::topswops::Game game = piles::topswops::play(deck);
      require(game.trace.back().front() == 1, "a game ends with card 1 on top");
      break;
    }
    case 6: {
      // As trace and random take it; only small ones are traced, as a large trace takes long.
      const std::vector<int> parts =
          piles::bulgarian::parse_partition(text, piles::bulgarian::max_trace_cards);
      const std::int64_t cards = std::accumulate(parts.begin(), parts.end(), std::int64_t{0});
      require(std::is_sorted(parts.rbegin(), parts.rend()) && parts.back() >= 1 &&
                  cards <= piles::bulgarian::max_trace_cards,
              "a partition has positive parts in order, at most max_trace_cards cards");
      if (cards <= piles::partition::max_n) piles::bulgarian::trace(parts);
      break;
    }
    case 7: {
      // Chip counts come as one or more command-line words.
      std::vector<std::string> words;
      for (std::size_t start = 0; start <= text.size();) {
        const std::size_t space = std::min(text.find(' ', start), text.size());
        words.emplace_back(text.substr(start, space - start));
        start = space + 1;
      }
      const std::vector<int> counts = piles::babylon::parse_counts(words);
      require(counts.size() >= 2 && counts.size() <= piles::babylon::max_colours,
              "a start has 2 to max_colours colours");
      break;
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  try {
    parse(data[0], std::string_view(reinterpret_cast<const char*>(data) + 1, size - 1));
  } catch (const piles::UsageError&) {
  }
  return 0;
}
