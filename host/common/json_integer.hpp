#pragma once

#include <concepts>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <utility>
#include <vector>

namespace piles {

// An integer of type T read from JSON that came from outside (a journal): unlike get<T>(), it
// refuses a float (one out of T's range would convert with undefined behaviour) and an integer
// out of T's range (which would wrap). Throws nlohmann::json::type_error, as get<T>() does for
// a wrong type, so callers handle both alike.
template <std::integral T>
T json_integer(const nlohmann::json& j) {
  if (j.is_number_unsigned() && std::in_range<T>(j.get<std::uint64_t>()))
    return static_cast<T>(j.get<std::uint64_t>());
  if (j.is_number_integer() && !j.is_number_unsigned() && std::in_range<T>(j.get<std::int64_t>()))
    return static_cast<T>(j.get<std::int64_t>());
  throw nlohmann::json::type_error::create(302, "expected an integer in range, found " + j.dump(),
                                           nullptr);
}

// An array of such integers.
template <std::integral T>
std::vector<T> json_integers(const nlohmann::json& j) {
  if (!j.is_array())
    throw nlohmann::json::type_error::create(302, "expected an array, found " + j.dump(), nullptr);
  std::vector<T> values;
  values.reserve(j.size());
  for (const nlohmann::json& v : j) values.push_back(json_integer<T>(v));
  return values;
}

}  // namespace piles
