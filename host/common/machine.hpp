#pragma once

#include <string>

namespace piles {

// What a record says of the machine and the moment it was made on.
// "Intel(R) Xeon(R) ..., 2 logical CPUs, 23.5 GiB memory"
std::string machine_description();
// The CPU's model name, or "CPU model unknown".
std::string cpu_model();
// "2026-11-23 16:41:01 UTC"
std::string utc_now();

}  // namespace piles
