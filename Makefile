# The two commands of the README: `make results` and `make test`. Both install missing Debian
# packages, configure and build first. `make results` ends with the documentation's examples,
# results/FRONTIER.md's checks among them; PRESET=full adds the slow ones.
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

.PHONY: all bootstrap configure build test cluster-test sanitize fuzz results bench format clean

all: build

bootstrap:
	@bash scripts/bootstrap

configure: bootstrap
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)

build: configure
	cmake --build $(BUILD) -j $(JOBS)

test: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS) $(CTEST_ARGS)

# The batch scripts of examples/slurm/ on a one-node Slurm cluster that the test starts and
# stops itself (as root): shards, a requeue, MPI through srun and mpirun, time limits.
cluster-test: build
	bash scripts/bootstrap cluster
	scripts/cluster-test $(BUILD)/piles

# The CPU test suite built with AddressSanitizer and UndefinedBehaviorSanitizer: any report
# fails the test that caused it. It leaves out the few tests that only rerun, at larger sizes,
# code that lighter tests already take (the docs' examples, every pass budget, every chunk of
# the plans, the bench signatures, the warp model at 13 cards, Griggs and Ho's D(n) over every
# partition up to 36, the 18-card backward estimate, three of the five job kinds run to a time
# limit and resumed): under the sanitizers they would take most of its time.
SANITIZE_SKIP = ^(docs|Estimate.TheDefaultPassesWeighTheEighteenCardBackwardSearchsChunks|TopswopsLockstep.EveryPassBudgetGivesTheSameChunks|TopswopsCore.PortablePathGivesEveryChunkOfThePlans|BenchCommand.CpuSignaturesAreTheCommittedOnesOnAnyThreadCount|TopswopsLockstep.TheWarpModelsFiguresAtThirteenCardsAreTheRecordedOnes|BulgarianLaneWalk.LanesAtLeastHalfBusyFromNinetyToOneTwenty|BulgarianWalk.LongestTransientIsGriggsHo|EveryJobKind/TimeLimit.*/(topswops_solve|topswops_lockstep|bulgarian_range))
sanitize:
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
	$(MAKE) test BUILD=build-sanitize CTEST_ARGS="-E '$(SANITIZE_SKIP)'" \
	  CMAKE_FLAGS="-DPILES_ENABLE_CUDA=OFF -DPILES_ENABLE_MPI=OFF -DPILES_BENCH=OFF \
	  -DPILES_SANITIZE=address,undefined -DCMAKE_BUILD_TYPE=RelWithDebInfo"

# libFuzzer targets (tests/fuzz) over what reads outside input, built with clang under
# AddressSanitizer and UndefinedBehaviorSanitizer in build-fuzz; each runs FUZZ_SECONDS over a
# scratch copy of its seed corpus, and any crash, report or failed property fails. Its sources
# are compiled a file at a time (the other builds are unity builds), so a file that does not
# include what it uses fails here.
FUZZ_SECONDS ?= 60
fuzz:
	@bash scripts/bootstrap fuzz
	cmake -S . -B build-fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DPILES_FUZZ=ON -DPILES_ENABLE_CUDA=OFF -DPILES_ENABLE_MPI=OFF -DBUILD_TESTING=OFF \
	  -DCMAKE_UNITY_BUILD=OFF
	cmake --build build-fuzz -j $(JOBS) --target fuzz_targets piles
	scripts/fuzz build-fuzz $(FUZZ_SECONDS)

results: configure
	cmake --build $(BUILD) -j $(JOBS) --target piles
	$(BUILD)/piles results --preset $(PRESET)
	tests/docs/check $(BUILD)/piles $(if $(filter full,$(PRESET)),--slow)

format:
	clang-format -i $$(git ls-files '*.hpp' '*.cpp' '*.cuh' '*.cu')

clean:
	rm -rf $(BUILD)
