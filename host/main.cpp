#include "host/cli/commands.hpp"

int main(int argc, char** argv) {
  return piles::cli::run(argc, argv);
}
