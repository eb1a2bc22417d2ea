"""The lockstep kernels' SASS instructions by what they serve, for host/topswops/lane_costs.hpp.

Reads `nvdisasm -gi` of kernels/topswops_lockstep.cu as the build compiles it (with -lineinfo)
and gives each instruction of lockstep_kernel<2, false, K> (K: lockstep, lean, staged, staged-shared) to a part
of the model by the source line it came from: the kernel's line where its code was inlined (the
pass loop, the refill, the vote, the flips after a pass's first, or else the warp's start and end),
and for a unit's call, the unit function of core/topswops_lane.hpp it was inlined from (a step's
own code: the dispatch; a staged stage's test: the pass). Every instruction counts once, both
sides of a branch, as a warp whose lanes part there issues both. Instructions that the line
table puts at a line outside the loop while they sit inside it (the loop's YIELD) go to the
pass. With a profile (ncu's source page as CSV, of any of the kernels from the same SASS), also
prints what each part executed per pass of its kind, to check the figures against the hardware.

    python3 kernel_costs.py DISASSEMBLY [PROFILE.csv]
"""
import csv
import re
import sys

KERNEL = "kernels/topswops_lockstep.cu"
LANE = "core/topswops_lane.hpp"
UNITS = ["choose", "flip", "block", "land", "ret"]
# stack: the lean and staged kernels' landings and returns, less the units themselves.
PARTS = UNITS + ["refill", "vote", "pass", "dispatch", "flip_again", "warp", "stack"]
KINDS = ["lockstep", "lean", "staged", "staged-shared"]


def source(path):
    with open(path) as f:
        return f.read().split("\n")


def constant(path, name):
    """The value of `inline constexpr int NAME = VALUE;` in a source file."""
    return int(re.search(r"constexpr int %s = (\d+);" % name, "\n".join(source(path))).group(1))


def function_range(lines, signature):
    """1-based first and last line of the function whose declaration contains `signature`."""
    start = next(i for i, l in enumerate(lines) if signature in l)
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("}"))
    return start + 1, end + 1


def kernel_parts(kind):
    """Kernel line -> part, for the lines of lockstep_kernel's pass loop (None: a unit's call,
    its code given to the unit function it was inlined from), and the lines whose code marks the
    loop's body for finding its back edge: the vote, or in the staged kernel its first stage's
    test. In the staged kernel a loop's rounds go to the part of the unit they repeat.
    kind: 0 lockstep, 1 lean, 2 staged, 3 staged-shared (topswops::LockstepKernel)."""
    lines = source(KERNEL)
    first, last = function_range(lines, "lockstep_kernel(LockstepLaunch<W> a)")
    split = next(i for i in range(first, last) if "if constexpr (lean_tables)" in lines[i - 1])
    indent = lines[split - 1][: len(lines[split - 1]) - len(lines[split - 1].lstrip())]
    other = next(i for i in range(split, last) if lines[i - 1] == indent + "} else {")
    loop_first = next(i for i in range(other if kind == 0 else split, last) if "for (" in lines[i - 1])
    indent = lines[loop_first - 1][: len(lines[loop_first - 1]) - len(lines[loop_first - 1].lstrip())]
    loop_last = next(i for i in range(loop_first, last) if lines[i - 1] == indent + "}")
    parts, anchor, flips = {}, set(), 0
    staged = False
    for i in range(loop_first, loop_last + 1):
        l = lines[i - 1]
        if "K == LockstepKernel::lean" in l:
            staged = False
        elif staged is False and l.strip() == "} else {" and kind != 0:
            staged = True
        if staged and "stacking(" in l:
            parts[i] = "pass"
            anchor.add(i)
        elif "take_work<" in l:
            parts[i] = "refill"
        elif "__all_sync" in l:
            parts[i] = "refill" if kind else "pass"
        elif "pass_unit(" in l or "pass_takes(" in l or "== unit)" in l:
            parts[i] = "vote"
            anchor.add(i)
        elif "step<Sorted>(" in l or "step_by_branches<Sorted>(" in l:
            parts[i] = None
        elif staged and ("_unit<" in l or "_unit(" in l):
            # The staged pass: (the part of the unit's code, None: its function's; the part of
            # the line's own code, the stage's test, which every pass issues). Its first flip is
            # the flip unit's, the rounds after it flip_again's; a choice is tested for in the
            # flips' stage.
            if "flip_unit" in l:
                parts[i] = (None, "pass") if flips == 0 else ("flip_again", "flip_again")
                flips += 1
            else:
                parts[i] = (None, "flip" if "choose_unit" in l else "pass")
        elif "flip_unit(" in l or "flipping" in l or "flip_rounds" in l:
            parts[i] = "flip_again"
        else:
            parts[i] = "pass"
    return parts, anchor


def unit_ranges():
    """core/topswops_lane.hpp: the lines of each unit's function (choose_unit .. ret_unit,
    stack_unit)."""
    lines = source(LANE)
    return {u: function_range(lines, "void %s_unit(" % u) for u in UNITS + ["stack"]}


def instructions(dis, kind):
    """(offset, text, frames) of each instruction of the kernel; frames outermost first, none
    for a function it calls (report, kept out of line: rare, the warp's), whose line table may
    name any line of the kernel."""
    name = "lockstep_kernelILi2ELb0ELNS_8topswops14LockstepKernelE%dE" % kind
    # Each instruction's location comes as one comment line per frame, innermost first; an
    # instruction without one has the location of the one before it.
    inside, called, frames, fresh, out = False, False, [], False, []
    for line in dis:
        if line.startswith(".text."):
            inside, called = name in line, False
            continue
        if not inside:
            continue
        if line.startswith("$"):  # a called function's label
            called = True
        m = re.match(r'\s*//## File "([^"]+)", line (\d+)', line)
        if m:
            frames = (frames if fresh else []) + [(m.group(1), int(m.group(2)))]
            fresh = True
            continue
        m = re.match(r"\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;", line)
        if m:
            if fresh:
                frames = frames[::-1]
                fresh = False
            out.append((int(m.group(1), 16), m.group(2), [] if called else frames))
    return out


def part_of(frames, kernel, units):
    """The part an instruction serves: by its line in the kernel's loop, and for a step, by the
    innermost unit function it was inlined from (the step's own lines: the dispatch). A staged
    stage's line names two parts: its unit's (None: by function) and its own code's."""
    for i, (f, n) in enumerate(frames):
        if f.endswith(KERNEL) and n in kernel:
            unit, own = kernel[n] if isinstance(kernel[n], tuple) else (kernel[n], "dispatch")
            inlined = [k for g, k in reversed(frames[i + 1 :]) if g.endswith(LANE)]
            if unit is not None and (inlined or not isinstance(kernel[n], tuple)):
                return unit
            for k in inlined:
                for u, (first, last) in units.items():
                    if first <= k <= last:
                        return u
            return own
    return "warp"


def main():
    dis = open(sys.argv[1]).read().split("\n")
    labels = {}
    pending = []
    for line in dis:
        m = re.match(r"(\.L_x_\d+):", line)
        if m:
            pending.append(m.group(1))
            continue
        m = re.match(r"\s*/\*([0-9a-f]{4,})\*/", line)
        if m:
            for p in pending:
                labels[p] = int(m.group(1), 16)
            pending = []
    units = unit_ranges()
    figures = {}
    for kind in range(len(KINDS)):
        kernel, anchor = kernel_parts(kind)
        code = instructions(dis, kind)
        part = [part_of(fr, kernel, units) for _, _, fr in code]
        marks = [at for at, _, fr in code if any(f.endswith(KERNEL) and n in anchor for f, n in fr)]
        # The pass loop's back edge: the branch after the marks to the earliest point before them
        # (a ballot's path for a diverged warp may lie past the loop's end: not after them all).
        head, tail = None, None
        for at, text, _ in code:
            m = re.search(r"BRA `\((\.L_x_\d+)\)", text)
            if m and at > min(marks) and labels[m.group(1)] <= min(marks):
                if head is None or labels[m.group(1)] < head:
                    head, tail = labels[m.group(1)], at
        # Lines of the loop's own code may be laid out before it, after it (once a launch) or
        # inside the refill (which runs only when a lane wants work): where it lies decides.
        refill = [at for (at, _, _), p in zip(code, part) if p == "refill" and head <= at <= tail]
        count = dict.fromkeys(PARTS, 0)
        where = {}
        for (at, text, _), p in zip(code, part):
            if p in ("pass", "warp"):
                if not head <= at <= tail:
                    p = "warp"
                elif min(refill) <= at <= max(refill):
                    p = "refill"
                else:
                    p = "pass"
            if text.startswith("NOP") or re.fullmatch(r"BRA `\(\.L_x_\d+\)", text) and labels.get(
                text[6:-2]
            ) == at:
                continue
            count[p] += 1
            where[at] = p
        # The staged kernel's flips after the first are one unrolled loop of flip_rounds - 1
        # copies: the model charges a copy for each round that runs.
        if kind >= 2:
            count["flip_again"] = round(count["flip_again"] / (constant(LANE, "flip_rounds") - 1))
        figures[kind] = (count, where)
        print("%s: %s" % (KINDS[kind], " ".join("%s %d" % (p, count[p]) for p in PARTS)))
    if len(sys.argv) > 2:
        check(sys.argv[2], figures)


def check(path, figures):
    """Executed warp instructions per pass of each part, from a profile of a lockstep kernel
    (its name says which) built from the same SASS (its instructions are matched by offset):
    the section of the launch that executed the most."""
    sections, kind = [], 0
    with open(path) as f:
        for row in csv.reader(f):
            if row and row[0] == "Kernel Name":
                sections.append([])
                # lockstep_kernel<(int)2, (bool)0, (piles::topswops::LockstepKernel)2>; before
                # the staged kernel, a bool: lean.
                m = re.search(r"LockstepKernel\)(\d)", row[1])
                flags = re.findall(r"\(bool\)([01])", row[1])
                kind = int(m.group(1)) if m else int(len(flags) == 2 and flags[1] == "1")
            elif sections and row and row[0].startswith("0x"):
                sections[-1].append((int(row[0], 16), float(row[5])))
    where = figures[kind][1]
    print("profile of the %s kernel" % KINDS[kind])
    best = max(sections, key=lambda s: sum(c for _, c in s))
    base = best[0][0]
    executed, runs = dict.fromkeys(PARTS, 0.0), dict.fromkeys(PARTS, 0.0)
    for at, c in best:
        p = where.get(at - base, "warp")
        executed[p] += c
        runs[p] = max(runs[p], c)
    passes = runs["pass"]
    print("profile: %.4g warp instructions in %.4g passes" % (sum(executed.values()), passes))
    # Each part's executed instructions over the times its most executed one ran: what one run
    # of it issued, to set beside the count above.
    for p in PARTS:
        if runs[p]:
            print("  %-10s %5.1f a run, %6.2f%% of passes, %5.1f a pass" % (
                p, executed[p] / runs[p], 100 * runs[p] / passes, executed[p] / passes))


main()
