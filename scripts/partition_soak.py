#!/usr/bin/env python3
"""The partition soak: random runs, each in one process and over R ranks (mpirun ... --partition,
R from 2 to --ranks-max, oversubscribed beyond the cores), whose outputs must be the same byte for
byte: the exit code, the trace, the report's JSON less its timings, the waves (less their $date)
and the --stats CSV (on the Verilated routers, their internals' waves instead). A configuration is
drawn from the collectives of every paper on the cube, the torus and the array, dynamic
broadcasting and synthetic traffic (uniform, or in half the runs another pattern); either level; the ideal router
(unbounded or bounded queues) or the input-buffered one (defaults, 4 VCs, BookSim2's preset, link
and credit delays), and one run in seven or so on the Verilated routers (--router rtl, the cube's
collectives they have logic for and traffic); packet lengths and seeds. One refused as bad input
(exit 2 in one process: a packet length its algorithm cannot split) is counted and skipped.

  scripts/partition_soak.py [--trials N] [--seed S] [--ranks-max R] [--build DIR]

Exit 0 when every run matched, 1 when one did not (its command and the first output that differs
are printed, both runs' files kept in a folder named there), 2 on bad input. Not part of the test
suite but for its smoke test (CTest partition_soak, 3 trials): the suite's Partition.* tests are
the contract; this looks for the configuration they do not name. docs/testing.md gives figures.
"""
import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

# A run longer than this is stopped, and reported: these runs take a second or less.
RUN_SECONDS = 600

# A JSON report's fields that measure the machine, not the run (those scripts/reference-runs.sh strips),
# and the ranks' own account of what they sent each other, which one process has not.
SPEED = {"wall_seconds", "elaboration_seconds", "router_cycles_per_second", "packet_hops_per_second"}

TRAFFIC = ["--task", "traffic", "--rate", "0.2", "--warmup-cycles", "50", "--window", "200", "--drain", "100"]
CUBE_TASKS = [
    ["--task", "snb"], ["--task", "mnb"], ["--task", "mnb", "--algorithm", "st"], ["--task", "mnb", "--algorithm", "vb3"],
    ["--task", "scatter"], ["--task", "te"], ["--task", "kb", "--k", "3"], ["--task", "kb", "--algorithm", "same-order", "--k", "3"],
    ["--task", "kb", "--algorithm", "pair", "--k", "2"], ["--task", "kb", "--algorithm", "rank"], ["--task", "succ"],
    ["--task", "pmnb", "--k", "5"], ["--task", "pmnb", "--algorithm", "vb1", "--k", "5"],
    ["--task", "pmnb", "--algorithm", "vb2", "--k", "6"], ["--task", "pmnb", "--algorithm", "vb-a0", "--k", "5"],
    ["--task", "dynamic", "--rho", "0.3", "--slots", "60"],
    ["--task", "dynamic", "--algorithm", "greedy", "--rho", "0.3", "--slots", "60"],
    TRAFFIC, TRAFFIC + ["--algorithm", "adaptive"]]
MESH_TASKS = [
    ["--task", "pmnb", "--k", "5"], ["--task", "pmnb", "--algorithm", "vbm-a0", "--k", "5"], ["--task", "pack", "--k", "5"],
    ["--task", "pe", "--k", "3"], ["--task", "pg", "--k", "3"], ["--task", "monotone", "--k", "4"], ["--task", "mnb"],
    TRAFFIC, ["--task", "dynamic", "--rho", "0.3", "--slots", "60"]]
INPUT_BUFFERED = [[], ["--vcs", "4"], ["--preset", "booksim"], ["--link-delay", "2", "--credit-delay", "1"]]
PATTERNS = ["transpose", "bitcomp", "bitrev", "shuffle", "tornado", "neighbor", "randperm"]


# What the Verilog routers have control logic for (built for the 4-cube: up to 4 ports).
RTL_TASKS = [["--task", "snb"], ["--task", "mnb"], ["--task", "mnb", "--algorithm", "sbt"], ["--task", "te"],
             ["--task", "kb", "--algorithm", "same-order", "--k", "3"], TRAFFIC]


def draw(rng):
    if rng.random() < 0.15:  # the Verilated routers, each rank its share's, at the cycle level
        args = rng.choice(RTL_TASKS) + ["--dim", str(rng.randint(3, 4)), "--router", "rtl"]
    elif rng.random() < 0.6:
        args = rng.choice(CUBE_TASKS) + ["--dim", str(rng.randint(3, 5))]
    else:
        args = rng.choice(MESH_TASKS) + ["--topology", rng.choice(["torus", "array"]), "--dim", "2",
                                         "--radix", str(rng.choice([3, 4, 5]))]
    if "traffic" in args and rng.random() < 0.5:  # (a pattern a network cannot take is refused and counted)
        args += ["--pattern", rng.choice(PATTERNS)]
    if "rtl" not in args and rng.random() < 0.4:
        args += ["--level", "tlm"]
    router = rng.random()
    if router < 0.35:
        args += ["--buffering", "input"] + rng.choice(INPUT_BUFFERED)
    elif router < 0.55:
        args += ["--queue-depth", str(rng.choice([1, 2, 4]))]
    if rng.random() < 0.3:
        args += ["--packet-flits", str(rng.choice([2, 4]))]
    if rng.random() < 0.3:
        args += ["--seed", str(rng.randint(1, 99))]
    return args


def outputs(folder):
    return {"trace": os.path.join(folder, "trace.csv"), "waves": os.path.join(folder, "waves.vcd"),
            "rtl_waves": os.path.join(folder, "waves_rtl.vcd"), "stats": os.path.join(folder, "stats.csv")}


def run(cubecast, args, ranks, folder):
    os.makedirs(folder, exist_ok=True)
    out = outputs(folder)
    command = [cubecast, "run"] + args + ["--json", "--no-rerun", "--trace", out["trace"], "--vcd", out["waves"]]
    if "rtl" not in args:  # (the Verilated routers count no block activity: their internals' waves instead)
        command += ["--stats", out["stats"], "--power", "default"]
    if ranks > 1:
        root = ["--allow-run-as-root"] if os.geteuid() == 0 else []
        command = ["mpirun"] + root + ["--oversubscribe", "-np", str(ranks)] + command + ["--partition"]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=RUN_SECONDS)
    except subprocess.TimeoutExpired:
        done = subprocess.CompletedProcess(command, None, "", f"(ran over {RUN_SECONDS} s and was stopped)")
    except OSError as e:  # (e.g. the build replaced the binary under the soak)
        print(f"partition_soak: {command[0]} cannot be run: {e.strerror}", file=sys.stderr)
        sys.exit(2)
    with open(os.path.join(folder, "stdout.txt"), "w") as f:
        f.write(done.stdout)
    with open(os.path.join(folder, "stderr.txt"), "w") as f:
        f.write(done.stderr)
    return command, done


def without_speed(value):
    if isinstance(value, dict):
        return {k: without_speed(v) for k, v in value.items() if k not in SPEED}
    if isinstance(value, list):
        return [without_speed(v) for v in value]
    return value


def without_timings(report):
    report = without_speed(report)
    if isinstance(report, dict):
        report.pop("partition", None)
    return report


def lines(path, skip):
    if not os.path.exists(path):
        return None
    with open(path, errors="replace") as f:
        return [line for line in f if not skip(line)]


def first_difference(one, many, folder_one, folder_many):
    """What first differs between the two runs, said, or None."""
    if one.returncode is None or many.returncode is None:
        return f"a run went over {RUN_SECONDS} s {'in one process' if one.returncode is None else 'over the ranks'} and was stopped"
    if one.returncode != many.returncode:
        return f"exit code {one.returncode} in one process, {many.returncode} over the ranks"
    try:
        report_one, report_many = json.loads(one.stdout), json.loads(many.stdout)
    except json.JSONDecodeError:
        report_one, report_many = one.stdout, many.stdout
    if without_timings(report_one) != without_timings(report_many):
        return "the JSON report (less its timings) differs"
    a, b = outputs(folder_one), outputs(folder_many)
    commandless = lambda path: lines(path, lambda l: l.startswith("# command"))
    if commandless(a["trace"]) != commandless(b["trace"]):
        return "the trace differs"
    if commandless(a["stats"]) != commandless(b["stats"]):
        return "the --stats CSV differs"
    # (the waves' header: $date and its line, and the command in a comment)
    dated = lambda path: [l for i, l in enumerate(lines(path, lambda l: False) or []) if i > 3 and "command" not in l]
    if dated(a["waves"]) != dated(b["waves"]):
        return "the waves differ"
    if dated(a["rtl_waves"]) != dated(b["rtl_waves"]):
        return "the Verilog routers' internals' waves differ"
    return None


class OneLineParser(argparse.ArgumentParser):
    def error(self, message):  # (bad input: one line, exit 2)
        print(f"partition_soak: {message}", file=sys.stderr)
        sys.exit(2)


def main():
    parser = OneLineParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--trials", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ranks-max", type=int, default=5)
    parser.add_argument("--build", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "build"))
    o = parser.parse_args()
    if o.trials < 1:
        sys.exit(print(f"partition_soak: --trials {o.trials}: accepted a whole number >= 1", file=sys.stderr) or 2)
    if not 2 <= o.ranks_max <= 64:
        sys.exit(print(f"partition_soak: --ranks-max {o.ranks_max}: accepted 2..64", file=sys.stderr) or 2)
    cubecast = os.path.join(o.build, "cubecast")
    if not os.access(cubecast, os.X_OK):
        sys.exit(print(f"partition_soak: --build {o.build}: no cubecast there (accepted: a build folder; scripts/setup.sh makes build/)",
                       file=sys.stderr) or 2)
    if not shutil.which("mpirun"):
        sys.exit(print("partition_soak: mpirun is missing (scripts/setup.sh installs Open MPI)", file=sys.stderr) or 2)
    os.environ.setdefault("OMPI_MCA_pml", "ob1")  # (ranks on one machine: shared memory, no fabric probe)
    rng = random.Random(o.seed)
    scratch = tempfile.mkdtemp(prefix="cubecast-partition-soak-")
    # (Open MPI's session folders in the soak's own: mpiruns sharing the temporary folder's can fail to
    # start as another ends, as those of the test programs CTest runs beside this one)
    os.environ["OMPI_MCA_orte_tmpdir_base"] = scratch
    matched = refused = 0
    try:
        for trial in range(o.trials):
            args, ranks = draw(rng), rng.randint(2, o.ranks_max)
            folder_one, folder_many = os.path.join(scratch, f"{trial}-one"), os.path.join(scratch, f"{trial}-ranks")
            _, one = run(cubecast, args, 1, folder_one)
            if one.returncode == 2:
                refused += 1
                continue
            command, many = run(cubecast, args, ranks, folder_many)
            difference = first_difference(one, many, folder_one, folder_many)
            if difference:
                kept = tempfile.mkdtemp(prefix="cubecast-partition-soak-mismatch-")
                for folder in (folder_one, folder_many):
                    shutil.move(folder, kept)
                print(f"partition_soak: trial {trial}: {difference}: {' '.join(command)} "
                      f"(both runs' files in {kept})")
                return 1
            matched += 1
            shutil.rmtree(folder_one)
            shutil.rmtree(folder_many)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"partition_soak: {matched} runs identical over 2 to {o.ranks_max} ranks, {refused} refused as bad input (seed {o.seed})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
