#include "host/common/program.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <spawn.h>
#include <sys/wait.h>

#include <stdexcept>

extern char** environ;

namespace piles {

bool run_program(const std::vector<std::string>& args, const std::string& package,
                 const std::string& stdout_file, const std::string& stderr_file) {
  std::vector<std::string> words = args;
  std::vector<char*> argv;
  for (std::string& word : words) argv.push_back(word.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t files;
  posix_spawn_file_actions_init(&files);
  if (!stdout_file.empty())
    posix_spawn_file_actions_addopen(&files, 1, stdout_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                     0600);
  if (!stderr_file.empty())
    posix_spawn_file_actions_addopen(&files, 2, stderr_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                     0600);
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, argv[0], &files, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&files);
  if (spawned != 0)
    throw std::runtime_error(
        fmt::format("cannot run {} (is {} installed?)", args.front(), package));
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

}  // namespace piles
