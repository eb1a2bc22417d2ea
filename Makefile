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

.PHONY: all bootstrap configure build test results bench format clean

all: build

bootstrap:
	@bash scripts/bootstrap

configure: bootstrap
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)

build: configure
	cmake --build $(BUILD) -j $(JOBS)

test: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

results: configure
	cmake --build $(BUILD) -j $(JOBS) --target piles
	$(BUILD)/piles results --preset $(PRESET)

format:
	clang-format -i $$(git ls-files '*.hpp' '*.cpp' '*.cuh' '*.cu')

clean:
	rm -rf $(BUILD)
