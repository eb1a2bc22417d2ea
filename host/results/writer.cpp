#include "host/results/writer.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <stdexcept>

#include "build_info.hpp"

namespace piles::results {
namespace {

void write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out.flush()) throw std::runtime_error(fmt::format("cannot write {}", path.string()));
}

}  // namespace

Writer::Writer(std::filesystem::path dir, std::string preset, RunTarget target, bool quiet)
    : dir_(std::move(dir)), preset_(std::move(preset)), target_(std::move(target)), quiet_(quiet) {
  const auto today = std::chrono::floor<std::chrono::days>(std::chrono::system_clock::now());
  const std::chrono::year_month_day ymd{today};
  date_ = fmt::format("{:04}-{:02}-{:02}", static_cast<int>(ymd.year()),
                      static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()));
}

std::string Writer::provenance(std::string_view what) const {
  return fmt::format(
      "made by `piles results --preset {}` ({}); piles {}; backend {}; device {}; "
      "threads {}; {}",
      preset_, what, version, backend_name(target_.backend), target_.device, target_.threads,
      date_);
}

std::filesystem::path Writer::external(const std::string& file, const std::string& description) {
  const std::filesystem::path path = dir_ / file;
  std::filesystem::create_directories(path.parent_path());
  written_.emplace_back(file, description);
  if (!quiet_) fmt::print(stderr, "results: writing {}\n", path.string());
  return path;
}

void Writer::markdown(const std::string& file, const std::string& title, std::string_view what,
                      const std::string& body) {
  write_file(external(file, title),
             fmt::format("# {}\n\n_{}_\n\n{}", title, provenance(what), body));
}

void Writer::commented(const std::string& file, const std::string& description,
                       std::string_view what, const std::string& body) {
  write_file(external(file, description),
             fmt::format("# {}\n# {}\n{}", description, provenance(what), body));
}

void Writer::plot(const std::string& file, const std::string& description,
                  const std::string& script) {
  const std::filesystem::path path = external(file, description);
  const std::string full_script =
      fmt::format("set terminal svg size 800,500 dynamic font 'sans,12'\nset output '{}'\n{}\n",
                  path.string(), script);
  FILE* gp = popen("gnuplot", "w");
  if (!gp) throw std::runtime_error("cannot start gnuplot");
  std::fwrite(full_script.data(), 1, full_script.size(), gp);
  if (pclose(gp) != 0) throw std::runtime_error(fmt::format("gnuplot failed on {}", file));
}

void Writer::write_index() const {
  std::string body = "| file | what it holds |\n|---|---|\n";
  for (const auto& [file, description] : written_)
    body += fmt::format("| [{0}]({0}) | {1} |\n", file, description);
  write_file(dir_ / "README.md",
             fmt::format("# piles results\n\n_{}_\n\nRegenerate with `make results` (or `piles "
                         "results --preset quick|full`). Benchmark records are in "
                         "[bench/](bench/), written by the `bench_*` programs.\n\n{}",
                         provenance("every table"), body));
}

}  // namespace piles::results
