#include "host/selftest/selftest.hpp"

#include <fmt/format.h>

#include <chrono>
#include <exception>

namespace piles::selftest {

Compared compare_each(const std::vector<Compared>& each, int first) {
  for (std::size_t i = 0; i < each.size(); ++i)
    if (each[i].expected != each[i].got) {
      const int at = first + static_cast<int>(i);
      return {fmt::format("[{}] {}", at, each[i].expected),
              fmt::format("[{}] {}", at, each[i].got)};
    }
  const std::string all = each.empty()
                              ? "nothing"
                              : fmt::format("{} alike, last {}", each.size(), each.back().expected);
  return {all, all};
}

std::vector<Check> all_checks(const RunTarget& target) {
  std::vector<Check> checks = topswops_checks(target);
  for (auto more : {bulgarian_checks(target), host_game_checks(target)})
    checks.insert(checks.end(), more.begin(), more.end());
  return checks;
}

std::vector<CheckResult> run(const std::vector<Check>& checks,
                             const std::function<void(const CheckResult&)>& done) {
  std::vector<CheckResult> results;
  for (const Check& check : checks) {
    CheckResult r;
    r.engine = check.engine;
    r.instance = check.instance;
    const auto start = std::chrono::steady_clock::now();
    try {
      const Compared c = check.run();
      r.expected = c.expected;
      r.got = c.got;
    } catch (const std::exception& e) {
      r.expected = "an answer";
      r.got = fmt::format("error: {}", e.what());
    }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    done(r);
    results.push_back(std::move(r));
  }
  return results;
}

}  // namespace piles::selftest
