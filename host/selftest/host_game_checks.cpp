// Scatterstone Nim and Babylon, solved on the host only: the values Project Euler 629 and
// seed 004 give, and Georgakopoulos and Winkler's theorem with the commercial start.
#include <fmt/format.h>

#include "host/babylon/solver.hpp"
#include "host/babylon/start.hpp"
#include "host/nim/count.hpp"
#include "host/nim/grundy.hpp"
#include "host/selftest/selftest.hpp"

namespace piles::selftest {
namespace {

std::string mpz_text(const mpz_class& value) {
  return value.get_str();
}

Check nim_counts(const std::string& engine, int threads) {
  return {"nim/" + engine, "f(5,2) f(5,3) g(7) g(10) (Project Euler 629)", [=] {
            const auto count = [&](int n, std::optional<std::int64_t> k) {
              return mpz_text(nim::count_winning(n, k, engine, threads));
            };
            return Compared{"3 5 66 291", fmt::format("{} {} {} {}", count(5, 2), count(5, 3),
                                                      count(7, {}), count(10, {}))};
          }};
}

Check grundy_three(int threads) {
  return {"nim/grundy", "G_3(1..18) (Project Euler 629 write-up)", [=] {
            return Compared{"0 1 2 3 1 4 3 2 4 5 6 7 8 9 7 6 9 8",
                            joined(nim::grundy_values(3, 18, threads))};
          }};
}

std::string winner(bool second_wins) {
  return second_wins ? "second" : "first";
}

Check babylon_two_colours(int threads) {
  constexpr int most = 9;
  return {"babylon/negamax", fmt::format("two colours, 1 <= p <= q <= {} (Theorem 4.1)", most),
          [=] {
            babylon::Solver solver(threads);
            std::vector<Compared> each;
            for (int p = 1; p <= most; ++p)
              for (int q = p; q <= most; ++q)
                each.push_back(
                    {fmt::format("{},{} {}", p, q, winner(babylon::theorem_second_wins(p, q))),
                     fmt::format("{},{} {}", p, q,
                                 winner(!solver.mover_wins(babylon::start_position({p, q}))))});
            return compare_each(each, 0);
          }};
}

Check babylon_commercial(int threads) {
  return {"babylon/negamax", "four colours of three chips (the commercial start)", [=] {
            babylon::Solver solver(threads);
            return Compared{"second",
                            winner(!solver.mover_wins(babylon::start_position({3, 3, 3, 3})))};
          }};
}

}  // namespace

std::vector<Check> host_game_checks(const RunTarget& target) {
  if (target.backend == Backend::gpu) return {};
  return {nim_counts("shortcut", target.threads), nim_counts("direct", target.threads),
          grundy_three(target.threads), babylon_two_colours(target.threads),
          babylon_commercial(target.threads)};
}

}  // namespace piles::selftest
