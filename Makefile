# The two commands of the README: `make results` and `make test`. Both install missing Debian
# packages, configure and build first.
BUILD ?= build
JOBS ?= $(shell nproc)
PRESET ?= quick
CMAKE_FLAGS ?=

# nvcc lives outside PATH on many CUDA installs; let CMake find it there.
ifeq ($(shell command -v nvcc),)
ifneq ($(wildcard /usr/local/cuda/bin/nvcc),)
export CUDACXX ?= /usr/local/cuda/bin/nvcc
endif
endif

.PHONY: all bootstrap configure build test sanitize results bench format clean

all: build

bootstrap:
	@bash scripts/bootstrap

configure: bootstrap
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)

build: configure
	cmake --build $(BUILD) -j $(JOBS)

test: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

# The CPU test suite built with AddressSanitizer and UndefinedBehaviorSanitizer: any report
# fails the test that caused it.
sanitize:
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
	$(MAKE) test BUILD=build-sanitize CMAKE_FLAGS="-DPILES_ENABLE_CUDA=OFF -DPILES_ENABLE_MPI=OFF \
	  -DPILES_SANITIZE=address,undefined -DCMAKE_BUILD_TYPE=RelWithDebInfo"

results: configure
	cmake --build $(BUILD) -j $(JOBS) --target piles
	$(BUILD)/piles results --preset $(PRESET)

format:
	clang-format -i $$(git ls-files '*.hpp' '*.cpp' '*.cuh' '*.cu')

clean:
	rm -rf $(BUILD)
