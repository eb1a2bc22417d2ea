#pragma once

#include <string>

namespace piles::topswops {

// How the CPU engine plays the moves after a choice (core/topswops.hpp, Playing): `vector`, the
// deck in SSE registers, one up to 16 cards and two up to 24 (x86-64-v2 builds), or `portable`, the
// packed 64-bit words that the GPU's code uses, on any CPU. The environment variable PILES_CPU_PATH
// (vector | portable) forces one, to compare them; unset, the build's fastest.
enum class CpuPath { vector, portable };

inline constexpr const char* cpu_path_variable = "PILES_CPU_PATH";

// The path of this process, read once. Throws UsageError for a value that is not a path, or
// `vector` in a build without one.
CpuPath cpu_path();

// "vector (a deck in SSE registers, ...)", or the portable path's words.
std::string cpu_path_text();

}  // namespace piles::topswops
