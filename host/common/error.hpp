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

}  // namespace piles
