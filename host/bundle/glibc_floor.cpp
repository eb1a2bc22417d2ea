// Linked only into the GPU bundle, which is linked against glibc 2.31 (PILES_GLIBC_ROOT, made by
// scripts/glibc-root) so that it runs on the GPU nodes people have: Ubuntu 20.04 and 22.04,
// RHEL 9 and its rebuilds. The static libstdc++ and libgcc of the newer GCC that
// compiles it were built against a newer glibc and use three of its later additions; they are
// given here in terms that glibc 2.31 has.
#include <dlfcn.h>
#include <link.h>
#include <sys/random.h>

#include <cstdint>

extern "C" {

// glibc 2.32: nonzero while the process has one thread, so that libstdc++ may skip atomic
// operations. 0 always takes the atomic path, which is right with any number of threads.
char __libc_single_threaded = 0;

// glibc 2.36: the default source of std::random_device.
std::uint32_t arc4random() {
  std::uint32_t value = 0;
  while (getrandom(&value, sizeof value, 0) != static_cast<ssize_t>(sizeof value)) {
  }
  return value;
}

namespace {

struct Search {
  std::uintptr_t pc;
  dl_find_object* found;
};

// The loaded object whose segments hold s.pc: its extent and its .eh_frame_hdr.
int visit(dl_phdr_info* info, std::size_t, void* data) {
  Search& s = *static_cast<Search*>(data);
  std::uintptr_t low = UINTPTR_MAX, high = 0;
  bool holds = false;
  void* eh_frame = nullptr;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& segment = info->dlpi_phdr[i];
    const std::uintptr_t start = info->dlpi_addr + segment.p_vaddr;
    if (segment.p_type == PT_LOAD) {
      low = start < low ? start : low;
      high = start + segment.p_memsz > high ? start + segment.p_memsz : high;
      holds = holds || (s.pc >= start && s.pc < start + segment.p_memsz);
    } else if (segment.p_type == PT_GNU_EH_FRAME) {
      eh_frame = reinterpret_cast<void*>(start);
    }
  }
  if (!holds) return 0;
  *s.found = {};
  s.found->dlfo_map_start = reinterpret_cast<void*>(low);
  s.found->dlfo_map_end = reinterpret_cast<void*>(high);
  s.found->dlfo_eh_frame = eh_frame;
  return 1;
}

}  // namespace

// glibc 2.35: how the unwinder finds the exception tables of the code an exception passes
// through. The same answer from dl_iterate_phdr, which the unwinder used before.
int _dl_find_object(void* pc, dl_find_object* result) {
  Search s{reinterpret_cast<std::uintptr_t>(pc), result};
  return dl_iterate_phdr(visit, &s) ? 0 : -1;
}

}  // extern "C"
