#pragma once

#include <stdexcept>
#include <string>

namespace piles {

// Bad input from the user: the program prints "piles: error: <what>" and exits with status 2.
// Every other exception is an internal or device failure and exits with status 1.
class UsageError : public std::runtime_error {
 public:
  explicit UsageError(const std::string& what) : std::runtime_error(what) {}
};

// A run that reached its time limit: what it finished is in its journal, and running the same
// command again resumes it. The program prints "piles: stopped: <what>" and exits with status 3.
class Stopped : public std::runtime_error {
 public:
  explicit Stopped(const std::string& what) : std::runtime_error(what) {}
};

}  // namespace piles
