#pragma once

// Game steps live once and compile for both sides: host engines call them through g++,
// kernels through nvcc.
#if defined(__CUDACC__)
#define PILES_HD __host__ __device__
#else
#define PILES_HD
#endif
