#!/usr/bin/env python3
"""The experiments of scripts/compare-peers.sh: the same networks, patterns and loads in cubecast,
BookSim2 and Noxim; a table and a latency-vs-load plot per experiment (--speed: a speed table instead).

Every simulator is asked for the same thing: Bernoulli injection at a rate in flits per node per
cycle, a warm-up, then latency (packet creation to the tail flit's delivery, cycles) and accepted
throughput (flits per node per cycle) over a measurement window of the same length. The warm-up is
as long as the window, because BookSim's warm-up is whole sample periods: BookSim runs one warm-up
period and one sample period (max_samples counts the warm-up), cubecast and Noxim the same cycles.
Noxim reports the head flit's latency: the tail's is taken as that plus 2 (flits - 1) (its links move a
flit every second cycle; exact when the
worm is not blocked on its way, a lower bound when it is). BookSim's uniform pattern picks the source
itself as a destination too (its mean hop count on the 8x8 mesh is 5.25, not 5.33); that stays a
difference, printed beside the tables. The peers are set as close to cubecast's router as they allow
(one virtual channel where the routing allows it, deep buffers, their shortest pipeline).

--matched sets cubecast's input-buffered router as each peer's and compares zero-load latency,
saturation throughput and, at the loads below 90 % of the peer's saturation, the means of --seeds
seeds' latencies (one seed near the knee strays by several percent in every simulator)."""
import argparse
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import time

EXPERIMENTS = [
    # name, title, cubecast topology options, BookSim network, Noxim mesh (or None), pattern, flits
    ("cube10_uniform_f1", "10-cube, uniform, 1-flit packets, e-cube",
     ["--topology", "hypercube", "--dim", "10", "--algorithm", "ecube"], {"topology": "mesh", "k": 2, "n": 10}, None, "uniform", 1),
    ("mesh8_uniform_f1", "8x8 mesh, uniform, 1-flit packets, XY",
     ["--topology", "array", "--dim", "2", "--radix", "8", "--algorithm", "dor"], {"topology": "mesh", "k": 8, "n": 2}, (8, 8), "uniform", 1),
    ("mesh8_uniform_f4", "8x8 mesh, uniform, 4-flit packets, XY",
     ["--topology", "array", "--dim", "2", "--radix", "8", "--algorithm", "dor"], {"topology": "mesh", "k": 8, "n": 2}, (8, 8), "uniform", 4),
    ("mesh8_transpose_f1", "8x8 mesh, transpose, 1-flit packets, XY",
     ["--topology", "array", "--dim", "2", "--radix", "8", "--algorithm", "dor"], {"topology": "mesh", "k": 8, "n": 2}, (8, 8), "transpose", 1),
    ("mesh8_transpose_f4", "8x8 mesh, transpose, 4-flit packets, XY",
     ["--topology", "array", "--dim", "2", "--radix", "8", "--algorithm", "dor"], {"topology": "mesh", "k": 8, "n": 2}, (8, 8), "transpose", 4),
    ("torus16_uniform_f1", "16x16 torus, uniform, 1-flit packets, DOR",
     ["--topology", "torus", "--dim", "2", "--radix", "16", "--algorithm", "dor"], {"topology": "torus", "k": 16, "n": 2}, None, "uniform", 1),
    ("mesh8_bitcomp_f1", "8x8 mesh, bit complement, 1-flit packets, XY",
     ["--topology", "array", "--dim", "2", "--radix", "8", "--algorithm", "dor"], {"topology": "mesh", "k": 8, "n": 2}, None, "bitcomp", 1),
    ("cube6_uniform_f1", "6-cube, uniform, 1-flit packets, e-cube",
     ["--topology", "hypercube", "--dim", "6", "--algorithm", "ecube"], {"topology": "mesh", "k": 2, "n": 6}, None, "uniform", 1),
]
EXPERIMENTS.append(("torus8_uniform_f1", "8x8 torus, uniform, 1-flit packets, DOR",
                    ["--topology", "torus", "--dim", "2", "--radix", "8", "--algorithm", "dor"], {"topology": "torus", "k": 8, "n": 2},
                    None, "uniform", 1))
# The power comparison's (--power): the presets' experiments.
POWER_EXPERIMENTS = ["mesh8_uniform_f1", "mesh8_uniform_f4", "cube6_uniform_f1", "torus8_uniform_f1"]
# The experiments of the matched comparison (--matched): the ones above but the last three only there.
FIRST_SIX = [e[0] for e in EXPERIMENTS[:6]]
MATCHED = [e[0] for e in EXPERIMENTS if e[0] != "torus8_uniform_f1"]

NOXIM_TRAFFIC = {"uniform": "random", "transpose": "transpose1"}


def timed(cmd, cwd=None):
    """Runs cmd under /usr/bin/time: (stdout, seconds, peak MiB)."""
    t0 = time.time()
    p = subprocess.run(["/usr/bin/time", "-f", "PEAK_KIB %M"] + cmd, cwd=cwd, capture_output=True, text=True)
    seconds = time.time() - t0
    peak = re.findall(r"PEAK_KIB (\d+)", p.stderr)
    return p.stdout + p.stderr, seconds, (int(peak[-1]) / 1024 if peak else 0.0)


def run_cubecast(args, topo, pattern, flits, load, level, warmup, window, extra=(), seed=1, drain=None):
    out, seconds, peak = timed([args.cubecast, "run", "--task", "traffic", *topo, *extra, "--seed", str(seed), "--pattern", pattern,
                                "--packet-flits", str(flits), "--rate", str(load), "--warmup-cycles", str(warmup),
                                "--window", str(window), "--drain", str(window if drain is None else drain), "--level", level, "--json"])
    start = out.find("{")
    j = json.loads(out[start:out.rfind("}") + 1])
    t = j["traffic"]
    return {"json": j, "latency": t["mean_latency_cycles"], "accepted": t["accepted"], "offered": t["offered"],
            "saturated": t["saturated"],
            "seconds": j["wall_seconds"], "wall": seconds, "peak": peak, "flit_hops": j["flits_moved"],
            "hops": t["mean_hops"], "cycles": j["simulated_cycles"], "zero_load": t["zero_load_latency_cycles"],
            "bound": t.get("channel_load_bound", {}).get("saturation_bound", float("nan"))}


def run_booksim(args, net, pattern, flits, load, warmup, window, workdir, seed=1, extra_cfg=""):
    vcs = 2 if net["topology"] == "torus" else 1  # BookSim's torus DOR needs a dateline VC pair
    cfg = f"""topology = {net['topology']};
k = {net['k']};
n = {net['n']};
routing_function = dim_order;
num_vcs = {vcs};
vc_buf_size = 64;
wait_for_tail_credit = 0;
vc_allocator = separable_input_first;
sw_allocator = separable_input_first;
alloc_iters = 1;
credit_delay = 0;
routing_delay = 0;
vc_alloc_delay = 1;
sw_alloc_delay = 1;
st_final_delay = 1;
input_speedup = 1;
output_speedup = 1;
internal_speedup = 1.0;
traffic = {pattern};
packet_size = {flits};
injection_rate = {load};
injection_rate_uses_flits = 1;
sim_type = latency;
warmup_periods = 1;
sample_period = {window};
max_samples = 2;
sim_count = 1;
seed = {seed};
{extra_cfg}"""
    path = os.path.join(workdir, f"booksim-{os.getpid()}.cfg")  # one per process: runs may share the folder
    with open(path, "w") as f:
        f.write(cfg)
    out, seconds, peak = timed([args.booksim, path])
    lat = re.findall(r"Packet latency average = ([\d.]+)", out)
    acc = re.findall(r"Accepted flit rate average\s*=\s*([\d.]+)", out)
    cycles = re.findall(r"Time taken is (\d+) cycles", out)
    unstable = "unstable" in out.lower() or not lat
    return {"output": out, "latency": float(lat[-1]) if lat else float("nan"), "accepted": float(acc[-1]) if acc else float("nan"),
            "saturated": unstable, "wall": seconds, "peak": peak, "cycles": int(cycles[-1]) if cycles else warmup + window}


def run_noxim(args, mesh, pattern, flits, load, warmup, window, seed=1):
    if flits < 2:
        return None  # Noxim's packets have a head and a tail flit: 2 flits at least
    pir = load / flits  # packets per node per cycle
    out, seconds, peak = timed(cwd=os.path.dirname(args.noxim), cmd=[args.noxim, "-config", args.noxim_config, "-dimx", str(mesh[0]), "-dimy", str(mesh[1]),
                                "-routing", "XY", "-traffic", NOXIM_TRAFFIC[pattern], "-pir", str(pir), "poisson",
                                "-size", str(flits), str(flits), "-buffer", "64", "-warmup", str(warmup),
                                "-sim", str(warmup + window), "-seed", str(seed)])
    lat = re.findall(r"Global average delay \(cycles\): ([\d.eE+-]+)", out)
    acc = re.findall(r"Average IP throughput \(flits/cycle/IP\): ([\d.eE+-]+)", out)
    head = float(lat[-1]) if lat else float("nan")
    # Noxim's links move a flit every second cycle (their alternating-bit req/ack handshake, Router.cpp):
    # the tail arrives 2 (flits - 1) cycles after the head.
    return {"latency": head + 2 * (flits - 1), "accepted": float(acc[-1]) if acc else float("nan"),
            "saturated": not lat, "wall": seconds, "peak": peak, "cycles": warmup + window}


# The zero-load latency is measured at this load over a window long enough for this many measured
# packets, in every simulator: at 0.01 a 4,000-cycle window on the 8x8 mesh measures about 2,500
# packets, whose mean hop count strays from the pattern's by a percent or more (sampling, not the
# router); 50,000 packets bring that to about 0.2 %.
ZERO_LOAD, ZERO_LOAD_PACKETS = 0.01, 50000


def zero_load_window(net, flits, window):
    nodes = net["k"] ** net["n"]
    return max(window, math.ceil(ZERO_LOAD_PACKETS * flits / (nodes * ZERO_LOAD)))


def stable(run, offered):
    """A run below its saturation: not marked saturated, accepting at least 90 % of what is offered."""
    return not run["saturated"] and run["accepted"] >= 0.9 * offered and run["latency"] == run["latency"]


def cubecast_unstable(run):
    """cubecast judges its own runs, but not with --drain 0, which leaves no drain to judge by (its
    saturated flag null): then it is held to accepting 90 % of the load its nodes offered, which leaves
    out the transpose's silent fixed points."""
    return run["saturated"] if run["saturated"] is not None else run["accepted"] < 0.9 * run["offered"]


def matched_options(topo, net, pattern):
    """cubecast's router set as each peer's: (its topology options and extra options as BookSim2's,
    its extra options as Noxim's). BookSim breaks a ring's ties at random: half each way round
    (dor-split); BookSim's patterns send a node's packets to itself too (--self-packets); Noxim's
    transpose1 sends the anti-diagonal's packets to themselves, its random pattern never does."""
    booksim_topo = [x if x != "dor" else "dor-split" for x in topo] if net["topology"] == "torus" else topo
    noxim_extra = ("--preset", "noxim") + (("--self-packets",) if pattern != "uniform" else ())
    return booksim_topo, ("--preset", "booksim", "--self-packets"), noxim_extra


def fmt(x, digits=2):
    return "-" if x != x else f"{x:.{digits}f}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cubecast", required=True)
    ap.add_argument("--booksim", required=True)
    ap.add_argument("--noxim", required=True)
    ap.add_argument("--noxim-config", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--experiments", default="", help="comma list of experiment names (default: all)")
    ap.add_argument("--seeds", type=int, default=5,
                    help="--matched: seeds per load below 90 %% of the peer's saturation, for the under-load column (default 5)")
    ap.add_argument("--power", action="store_true",
                    help="power per block: cubecast --preset booksim --power default against BookSim2's power module (sim_power 1, "
                         "its own src/power/techfile.txt) on the presets' experiments at three loads each")
    ap.add_argument("--matched", action="store_true",
                    help="cubecast's input-buffered router set as each peer's (--preset booksim, --preset noxim) instead of its ideal router")
    ap.add_argument("--speed", action="store_true",
                    help="speed instead: each simulator's whole-process wall time and peak memory on the same network, load "
                         "and cycles, --reps runs each alternating, medians (speed.md)")
    ap.add_argument("--reps", type=int, default=3,
                    help="--speed: runs of each simulator at each point (default 3; at least 15 where a round takes under 2 s)")
    ap.add_argument("--docs", action="store_true",
                    help="also write the tables this run made into the docs, each between its '<!-- peers FILE: ... -->' and "
                         "'<!-- end of peers FILE -->' lines")
    args = ap.parse_args()
    started = time.time()
    run_mode(args)
    if args.docs:
        write_docs(args.out, started)


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def write_docs(out, since):
    """Each docs block '<!-- peers FILE: ... -->' ... '<!-- end of peers FILE -->' whose FILE this run wrote in
    the output folder gets that file's text, and each plot the docs show that this run drew is copied
    over; blocks and plots the run did not make stay as they are."""
    docs = os.path.join(ROOT, "docs")
    for doc in sorted(os.listdir(docs)):
        if not doc.endswith(".md"):
            continue
        path = os.path.join(docs, doc)
        with open(path) as f:
            text = f.read()

        def table(m):
            made = os.path.join(out, m.group(2))
            if not os.path.exists(made) or os.path.getmtime(made) < since:
                return m.group(0)
            with open(made) as f:
                print(f"{doc}: peers table {m.group(2)} written")
                return m.group(1) + "\n" + f.read().strip("\n") + "\n" + m.group(3)

        new = re.sub(r"(<!-- peers ([\w.-]+): [^\n]*-->)\n.*?(<!-- end of peers \2 -->)", table, text, flags=re.S)
        if new != text:
            with open(path, "w") as f:
                f.write(new)
    # The plots the docs show: docs/peers_NAME.png is the run's NAME.png, docs/matched_NAME.png its NAME_matched.png.
    for image in sorted(os.listdir(docs)):
        m = re.fullmatch(r"(peers|matched)_([\w-]+)\.png", image)
        if not m:
            continue
        made = os.path.join(out, m.group(2) + ("_matched" if m.group(1) == "matched" else "") + ".png")
        if os.path.exists(made) and os.path.getmtime(made) >= since:
            shutil.copyfile(made, os.path.join(docs, image))
            print(f"{image}: plot written")


def run_mode(args):
    args.noxim, args.noxim_config, args.booksim = (os.path.abspath(x) for x in (args.noxim, args.noxim_config, args.booksim))
    os.makedirs(args.out, exist_ok=True)
    warmup, window = (1000, 1000) if args.quick else (4000, 4000)
    default = [e for e in EXPERIMENTS if e[0] in (MATCHED if args.matched else FIRST_SIX)]
    by_name = {e[0]: e for e in EXPERIMENTS}
    chosen = [by_name[x] for x in args.experiments.split(",") if x in by_name] if args.experiments else default
    if args.power:
        return power(args, [by_name[x] for x in args.experiments.split(",") if x in by_name] if args.experiments
                     else [by_name[x] for x in POWER_EXPERIMENTS], warmup, window)
    if args.matched:
        return matched(args, chosen, warmup, window)
    if args.speed:
        return speed(args, chosen, warmup, window)
    for name, title, topo, net, mesh, pattern, flits in chosen:
        top = 0.5 if name.startswith("torus") else 0.6
        loads = [0.05, 0.2, 0.4] if args.quick else [round(0.05 * i, 2) for i in range(1, int(top / 0.05) + 1)]
        if name.startswith("cube"):
            loads = [0.05, 0.3, 0.6] if args.quick else [0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0]
        rows = []
        for load in loads:
            c = run_cubecast(args, topo, pattern, flits, load, "cycle", warmup, window)
            t = run_cubecast(args, topo, pattern, flits, load, "tlm", warmup, window)
            b = run_booksim(args, net, pattern, flits, load, warmup, window, args.out)
            n = run_noxim(args, mesh, pattern, flits, load, warmup, window) if mesh else None
            if n is None:
                mesh = None
            rows.append((load, c, t, b, n))
            print(f"{name} load {load}: cubecast {fmt(c['latency'])} / {fmt(c['accepted'], 3)}, BookSim {fmt(b['latency'])} / "
                  f"{fmt(b['accepted'], 3)}" + (f", Noxim {fmt(n['latency'])} / {fmt(n['accepted'], 3)}" if n else ""), flush=True)
        with open(os.path.join(args.out, name + ".md"), "w") as f:
            f.write(f"### {title}\n\n| offered | cubecast latency | accepted | BookSim2 latency | accepted |"
                    + (" Noxim latency | accepted |" if mesh else "") + "\n|---|---|---|---|---|" + ("---|---|" if mesh else "") + "\n")
            for load, c, t, b, n in rows:
                f.write(f"| {load} | {fmt(c['latency'])}{' (sat)' if c['saturated'] else ''} | {fmt(c['accepted'], 3)} | "
                        f"{fmt(b['latency'])}{' (sat)' if b['saturated'] else ''} | {fmt(b['accepted'], 3)} |"
                        + (f" {fmt(n['latency'])} | {fmt(n['accepted'], 3)} |" if n else "") + "\n")
            c0 = rows[0][1]
            f.write(f"\nAnalytic limits (cubecast's report): zero-load latency {fmt(c0['zero_load'])} cycles (mean hops "
                    f"{fmt(c0['hops'], 3)} x {flits} flits, store and forward); channel-load bound of the pattern under "
                    f"dimension-order routing {fmt(c0['bound'], 3)} flits/node/cycle.\n")
        with open(os.path.join(args.out, name + ".dat"), "w") as f:
            f.write("# offered cubecast_latency booksim_latency noxim_latency\n")
            for load, c, t, b, n in rows:
                f.write(f"{load} {c['latency']} {b['latency']} {n['latency'] if n else 'nan'}\n")
        for term, ext in (("pngcairo size 800,500", "png"), ("svg size 800,500", "svg")):
            plot = (f"set terminal {term}; set output '{os.path.join(args.out, name + '.' + ext)}'; set title '{title}';"
                    "set xlabel 'offered load (flits/node/cycle)'; set ylabel 'mean latency (cycles)'; set logscale y; set grid; set key left top;"
                    f"plot '{os.path.join(args.out, name + '.dat')}' using 1:2 with linespoints title 'cubecast',"
                    f" '' using 1:3 with linespoints title 'BookSim2'" + (", '' using 1:4 with linespoints title 'Noxim'" if mesh else ""))
            subprocess.run(["gnuplot", "-e", plot], check=False)
    print("tables and plots in", args.out)


# --speed: a light load and one below every simulator's saturation (BookSim's one-VC input-queued
# router saturates near 0.2 on the 8x8 mesh under uniform traffic with 1-flit packets); transpose's
# knee is lower (BookSim's between 0.06 and 0.08 with 1-flit packets): the light load only.
SPEED_LOADS = {"uniform": (0.05, 0.15), "transpose": (0.05,)}
# A point whose first round of every simulator took under this many seconds runs this many rounds.
SHORT_ROUND_SECONDS, SHORT_ROUND_REPS = 2.0, 15


def speed(args, chosen, warmup, window):
    """Whole-process wall time and peak memory of cubecast's two levels (its ideal router), BookSim2 and
    Noxim on the same network and load: each --reps times (SHORT_ROUND_REPS where a round is short), the
    simulators in turn (the order rotated each round, so none always runs after the same one), medians
    of the times, the largest peak. The same
    cycles: BookSim runs one warm-up and one sample period and then drains its measured packets; cubecast
    runs as long with --drain 0 (injection stops with the window and its measured packets drain), Noxim
    the warm-up and window. Each simulator is credited with cubecast's flit-hops a cycle times its own
    cycles (the cycles each ran are in the table); a point where a simulator found its run unstable is
    marked, as the work then differs. Beside them, in the same rounds, cubecast's input-buffered router
    set as each peer's (--preset booksim, --preset noxim: the routers --matched compares), for a
    second table of the matched routers' speeds."""
    rows = []
    for name, title, topo, net, mesh, pattern, flits in chosen:
        for load in SPEED_LOADS[pattern]:
            runners = {
                "cycle": lambda: run_cubecast(args, topo, pattern, flits, load, "cycle", warmup, window, drain=0),
                "tlm": lambda: run_cubecast(args, topo, pattern, flits, load, "tlm", warmup, window, drain=0),
                "booksim": lambda: run_booksim(args, net, pattern, flits, load, warmup, window, args.out),
            }
            # the input-buffered router set as each peer's (as --matched runs it), on the same cycles
            booksim_topo, booksim_extra, noxim_extra = matched_options(topo, net, pattern)
            runners["preset-booksim"] = lambda: run_cubecast(args, booksim_topo, pattern, flits, load, "cycle", warmup, window,
                                                             booksim_extra, drain=0)
            if mesh and flits >= 2:
                runners["noxim"] = lambda: run_noxim(args, mesh, pattern, flits, load, warmup, window)
                runners["preset-noxim"] = lambda: run_cubecast(args, topo, pattern, flits, load, "cycle", warmup, window,
                                                               noxim_extra, drain=0)
            runs = {k: [] for k in runners}
            order = list(runners)
            rounds, rep = args.reps, 0
            while rep < rounds:
                started = time.time()
                for k in order[rep % len(order):] + order[:rep % len(order)]:
                    runs[k].append(runners[k]())
                if rep == 0 and time.time() - started < SHORT_ROUND_SECONDS:
                    rounds = max(rounds, SHORT_ROUND_REPS)  # (a short point's time strays more from run to run)
                rep += 1
            c = runs["cycle"][0]
            per_cycle = c["flit_hops"] / c["cycles"]
            unstable = [k for k in runs
                        if (cubecast_unstable(runs[k][0]) if k in ("cycle", "tlm") or k.startswith("preset") else not stable(runs[k][0], load))]
            med = {k: {"wall": statistics.median(r["wall"] for r in v), "cycles": v[0]["cycles"], "peak": max(r["peak"] for r in v)}
                   for k, v in runs.items()}
            rows.append((name, load, per_cycle, med, unstable))
            print(f"{name} load {load}: " + ", ".join(f"{k} {m['wall']:.3f} s" for k, m in med.items()), flush=True)
    with open(os.path.join(args.out, "speed.md"), "w") as f:
        f.write(f"| experiment | load | cycles cubecast / BookSim2 / Noxim | wall s cycle level / TLM / BookSim2 / Noxim | "
                f"cycle / BookSim | TLM / BookSim | TLM / Noxim | peak MiB cubecast / BookSim2 / Noxim |\n"
                "|---|---|---|---|---|---|---|---|\n")
        for name, load, per_cycle, med, unstable in rows:
            def rate(k):
                return per_cycle * med[k]["cycles"] / med[k]["wall"] if k in med and med[k]["wall"] > 0 else float("nan")

            def get(k, field, form):
                return format(med[k][field], form) if k in med else "-"
            own = [k for k in unstable if not k.startswith("preset")]
            mark = f" ({', '.join(own)} unstable)" if own else ""
            f.write(f"| {name} | {load}{mark} | {get('cycle', 'cycles', 'd')} / {get('booksim', 'cycles', 'd')} / {get('noxim', 'cycles', 'd')} | "
                    f"{get('cycle', 'wall', '.3f')} / {get('tlm', 'wall', '.3f')} / {get('booksim', 'wall', '.3f')} / {get('noxim', 'wall', '.3f')} | "
                    f"{fmt(rate('cycle') / rate('booksim'))} | {fmt(rate('tlm') / rate('booksim'))} | {fmt(rate('tlm') / rate('noxim'))} | "
                    f"{max(med['cycle']['peak'], med['tlm']['peak']):.0f} / {get('booksim', 'peak', '.0f')} / {get('noxim', 'peak', '.0f')} |\n")
    # The matched routers: each preset's run credited, as its peer is, with the preset run's flit-hops a
    # cycle times each one's own cycles (so the flit-hops a cycle cancel: the ratio is of cycles a second).
    with open(os.path.join(args.out, "speed_matched.md"), "w") as f:
        f.write("| experiment | load | cycles cubecast / BookSim2 | wall s `--preset booksim` / BookSim2 | ratio | "
                "wall s `--preset noxim` / Noxim | ratio | peak MiB `--preset booksim` / BookSim2 |\n"
                "|---|---|---|---|---|---|---|---|\n")
        for name, load, _, med, unstable in rows:
            def matched_ratio(preset, peer):
                if preset not in med or peer not in med or min(med[preset]["wall"], med[peer]["wall"]) <= 0:
                    return "-"
                return fmt((med[preset]["cycles"] / med[preset]["wall"]) / (med[peer]["cycles"] / med[peer]["wall"])) + "x"
            marked = [k for k in unstable if k in ("preset-booksim", "booksim", "preset-noxim", "noxim")]
            mark = f" ({', '.join(marked)} unstable)" if marked else ""
            pb, b = med["preset-booksim"], med["booksim"]
            noxim = (f"{med['preset-noxim']['wall']:.3f} / {med['noxim']['wall']:.3f} | {matched_ratio('preset-noxim', 'noxim')}"
                     if "noxim" in med else "- | -")
            f.write(f"| {name} | {load}{mark} | {pb['cycles']} / {b['cycles']} | {pb['wall']:.3f} / {b['wall']:.3f} | "
                    f"{matched_ratio('preset-booksim', 'booksim')} | {noxim} | {pb['peak']:.0f} / {b['peak']:.0f} |\n")
    print("speed tables in", os.path.join(args.out, "speed.md"), "and", os.path.join(args.out, "speed_matched.md"))


def matched(args, chosen, warmup, window):
    """Each peer against cubecast's input-buffered router set as that peer's: latency and accepted load
    side by side, the zero-load latency (at the lightest load, over a window of ZERO_LOAD_PACKETS
    packets) and the saturation throughput (the largest accepted load) compared, one plot per
    experiment with the curves overlaid."""
    summary = []
    for name, title, topo, net, mesh, pattern, flits in chosen:
        seed_means = {}
        top = 0.5 if name.startswith("torus") else 0.6
        loads = [0.01] + [round(0.05 * i, 2) for i in range(1, int(top / 0.05) + 1)]
        if name.startswith("cube"):
            loads = [0.01, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]
        topo, booksim_extra, noxim_extra = matched_options(topo, net, pattern)  # (topo: BookSim2's, as its runs take it)
        rows = []
        saturated_streak = 0
        for load in loads:
            cb = run_cubecast(args, topo, pattern, flits, load, "cycle", warmup, window, booksim_extra)
            b = run_booksim(args, net, pattern, flits, load, warmup, window, args.out)
            n = run_noxim(args, mesh, pattern, flits, load, warmup, window) if mesh else None
            cn = run_cubecast(args, topo, pattern, flits, load, "cycle", warmup, window, noxim_extra) if n else None
            rows.append((load, cb, b, cn, n))
            saturated_streak = saturated_streak + 1 if cb["saturated"] and b["saturated"] and (not n or (cn["saturated"] and n["saturated"])) else 0
            print(f"{name} load {load}: cubecast/booksim {fmt(cb['latency'])} / {fmt(cb['accepted'], 3)}, BookSim "
                  f"{fmt(b['latency'])} / {fmt(b['accepted'], 3)}" + (f"; cubecast/noxim {fmt(cn['latency'])} / "
                  f"{fmt(cn['accepted'], 3)}, Noxim {fmt(n['latency'])} / {fmt(n['accepted'], 3)}" if n else ""), flush=True)
            if saturated_streak == 2:  # two loads past saturation in every simulator: the rest would add nothing but time
                break
        with_noxim = rows[0][4] is not None
        # The zero-load latency: the lightest load again, over a window of ZERO_LOAD_PACKETS packets.
        zw = zero_load_window(net, flits, window)
        zero = {1: run_cubecast(args, topo, pattern, flits, ZERO_LOAD, "cycle", zw, zw, booksim_extra),
                2: run_booksim(args, net, pattern, flits, ZERO_LOAD, zw, zw, args.out)}
        if with_noxim:
            zero[3] = run_cubecast(args, topo, pattern, flits, ZERO_LOAD, "cycle", zw, zw, noxim_extra)
            zero[4] = run_noxim(args, mesh, pattern, flits, ZERO_LOAD, zw, zw)
        print(f"{name} zero load ({zw} cycles measured): " + ", ".join(f"{fmt(z['latency'])}" for z in zero.values()), flush=True)
        with open(os.path.join(args.out, name + "_matched.md"), "w") as f:
            f.write(f"### {title}\n\n| offered | cubecast --preset booksim | accepted | BookSim2 | accepted |"
                    + (" cubecast --preset noxim | accepted | Noxim | accepted |" if with_noxim else "")
                    + "\n|---|---|---|---|---|" + ("---|---|---|---|" if with_noxim else "") + "\n")
            for load, cb, b, cn, n in rows:
                f.write(f"| {load} | {fmt(cb['latency'])}{' (sat)' if cb['saturated'] else ''} | {fmt(cb['accepted'], 3)} | "
                        f"{fmt(b['latency'])}{' (sat)' if b['saturated'] else ''} | {fmt(b['accepted'], 3)} |"
                        + (f" {fmt(cn['latency'])}{' (sat)' if cn['saturated'] else ''} | {fmt(cn['accepted'], 3)} | "
                           f"{fmt(n['latency'])} | {fmt(n['accepted'], 3)} |" if with_noxim else "") + "\n")
        pairs = [("BookSim2", 1, 2, booksim_extra)] + ([("Noxim", 3, 4, noxim_extra)] if with_noxim else [])
        for peer, ci, pi, extra in pairs:
            zc, zp = zero[ci]["latency"], zero[pi]["latency"]
            sc, sp = max(r[ci]["accepted"] for r in rows), max(r[pi]["accepted"] for r in rows)
            # Under load: the loads below 90 % of the peer's saturation throughput that both runs accept
            # (neither marked saturated, each accepting at least 90 % of what is offered; past saturation a
            # run's mean latency is that of its measurement window, which the simulators measure
            # differently). One seed's mean latency near the knee strays by several percent from seed to
            # seed in every simulator, so at these loads both are run with --seeds seeds and the means of
            # the seeds compared; the largest difference is reported with its standard error.
            worst, seeds_of = None, {}
            for r in rows:
                load = r[0]
                if not (load < 0.9 * sp and stable(r[ci], load) and stable(r[pi], load)):
                    continue
                mine, theirs = [r[ci]["latency"]], [r[pi]["latency"]]
                for seed in range(2, args.seeds + 1):
                    mine.append(run_cubecast(args, topo, pattern, flits, load, "cycle", warmup, window, extra, seed)["latency"])
                    theirs.append((run_booksim(args, net, pattern, flits, load, warmup, window, args.out, seed) if peer == "BookSim2"
                                   else run_noxim(args, mesh, pattern, flits, load, warmup, window, seed))["latency"])
                mc, mp = statistics.fmean(mine), statistics.fmean(theirs)
                se = (math.sqrt((statistics.variance(mine) + statistics.variance(theirs)) / len(mine)) / mp
                      if len(mine) > 1 else float("nan"))
                seeds_of[load] = (mc, mp, se)
                print(f"{name} {peer} load {load}, {len(mine)} seeds: cubecast {fmt(mc)}, peer {fmt(mp)}", flush=True)
                if worst is None or abs(mc - mp) / mp > abs(worst[1] - worst[2]) / worst[2]:
                    worst = (abs(mc - mp) / mp, mc, mp, load, se)
            seed_means[peer] = seeds_of
            summary.append((name, peer, zc, zp, sc, sp, worst))
        with open(os.path.join(args.out, name + "_matched.md"), "a") as f:
            for peer, means in seed_means.items():
                if means:
                    f.write(f"\nBelow 90 % of {peer}'s saturation, the means of {args.seeds} seeds:\n\n"
                            f"| offered | cubecast | {peer} | difference | standard error |\n|---|---|---|---|---|\n")
                    for load, (mc, mp, se) in means.items():
                        f.write(f"| {load} | {fmt(mc)} | {fmt(mp)} | {100 * (mc - mp) / mp:+.1f} % | {fmt(100 * se, 1)} % |\n")
        with open(os.path.join(args.out, name + "_matched.dat"), "w") as f:
            f.write("# offered cubecast_booksim booksim cubecast_noxim noxim\n")
            for load, cb, b, cn, n in rows:
                f.write(f"{load} {cb['latency']} {b['latency']} {cn['latency'] if cn else 'nan'} {n['latency'] if n else 'nan'}\n")
        dat = os.path.join(args.out, name + "_matched.dat")
        for term, ext in (("pngcairo size 800,500", "png"), ("svg size 800,500", "svg")):
            plot = (f"set terminal {term}; set output '{os.path.join(args.out, name + '_matched.' + ext)}'; set title '{title}: matched routers';"
                    "set xlabel 'offered load (flits/node/cycle)'; set ylabel 'mean latency (cycles)'; set logscale y; set grid; set key left top;"
                    f"plot '{dat}' using 1:2 with linespoints title 'cubecast --preset booksim', '' using 1:3 with linespoints title 'BookSim2'"
                    + (", '' using 1:4 with linespoints title 'cubecast --preset noxim', '' using 1:5 with linespoints title 'Noxim'" if with_noxim else ""))
            subprocess.run(["gnuplot", "-e", plot], check=False)
    with open(os.path.join(args.out, "matched_summary.md"), "w") as f:
        f.write("| experiment | peer | zero-load latency cubecast / peer | difference | saturation throughput cubecast / peer | "
                f"difference | latency under load (below 90 % of the peer's saturation, means of {args.seeds} seeds): the largest difference |\n"
                "|---|---|---|---|---|---|---|\n")
        for name, peer, zc, zp, sc, sp, worst in summary:
            under = "-" if worst is None else (f"{100 * (worst[1] - worst[2]) / worst[2]:+.1f} % at {worst[3]} "
                                               f"({fmt(worst[1])} / {fmt(worst[2])}"
                                               + (f", standard error {100 * worst[4]:.1f} %" if worst[4] == worst[4] else "") + ")")
            f.write(f"| {name} | {peer} | {fmt(zc)} / {fmt(zp)} | {100 * (zc - zp) / zp:+.1f} % | {fmt(sc, 3)} / {fmt(sp, 3)} | "
                    f"{100 * (sc - sp) / sp:+.1f} % | {under} |\n")
    print("tables and plots in", args.out)


# BookSim2's power summary lines and cubecast's JSON names for them.
POWER_BLOCKS = [("channel_wire", "Channel Wire Power"), ("channel_clock", "Channel Clock Power"),
                ("channel_retiming", "Channel Retiming Power"), ("channel_leakage", "Channel Leakage Power"),
                ("input_read", "Input Read Power"), ("input_write", "Input Write Power"), ("input_leakage", "Input Leakage Power"),
                ("switch_traversal", "Switch Power"), ("switch_control", "Switch Control Power"),
                ("switch_leakage", "Switch Leakage Power"), ("output_retiming", "Output DFF Power"),
                ("output_clock", "Output Clk Power"), ("output_control", "Output Control Power"), ("total", "Total Power")]
# Priced per channel, whatever carries flits: where BookSim2 builds channels that carry nothing (a mesh's
# edge channels, the 2-ary n-mesh's second channel between two nodes), its channel clock and leakage
# are larger by its channel count over cubecast's.
PER_CHANNEL = {"channel_clock", "channel_leakage"}


def booksim_channels(net):
    nodes = net["k"] ** net["n"]
    return 2 * net["n"] * nodes + 2 * nodes  # its network channels (2n a router, used or not), injection and ejection


def power(args, chosen, warmup, window):
    """Power per block: cubecast's input-buffered router set as BookSim2's (--preset booksim, --self-packets)
    with --power default, against BookSim2 with sim_power 1 on its own technology file, same loads, same
    cycles, 64-bit channels; one table per experiment (watts, and the difference)."""
    techfile = os.path.join(os.path.dirname(args.booksim), "power", "techfile.txt")
    if not os.path.exists(techfile):
        raise SystemExit(f"compare_peers.py: {techfile} is missing: --power needs BookSim2's source folder as built by compare-peers.sh")
    extra_cfg = f"sim_power = 1;\ntech_file = {techfile};\nchannel_width = 64;\npower_output_file = /dev/null;\n"
    summary = []
    for name, title, topo, net, mesh, pattern, flits in chosen:
        if net["topology"] == "torus":
            topo = [x if x != "dor" else "dor-split" for x in topo]
        loads = [0.05, 0.1, 0.15] if net["topology"] == "mesh" and net["k"] > 2 and flits == 1 else [0.1, 0.2, 0.3]  # (below saturation)
        # BookSim2 builds a 2-ary n-mesh for the n-cube: routers of 2n + 1 ports (half their network
        # ports unconnected), so what scales with the ports differs by construction, not by activity.
        structural = set() if net["k"] > 2 else {"input_leakage", "switch_traversal", "switch_control", "switch_leakage",
                                                   "output_clock", "total"}
        columns = []
        for load in loads:
            c = run_cubecast(args, topo, pattern, flits, load, "cycle", warmup, window, ("--preset", "booksim", "--self-packets", "--power", "default"))
            b = run_booksim(args, net, pattern, flits, load, warmup, window, args.out, 1, extra_cfg)
            theirs = {}
            for key, label in POWER_BLOCKS:
                m = re.findall(re.escape(label) + r":\s*([-\d.eE+]+)", b["output"])
                theirs[key] = float(m[-1]) if m else float("nan")
            mine = c["json"]["power"]["watts"]
            columns.append((load, mine, theirs, c["json"]["power"]["channels"], c["cycles"], b["cycles"]))
            print(f"{name} load {load}: cubecast {mine['total']:.4f} W, BookSim2 {theirs['total']:.4f} W", flush=True)
        ours_channels, their_channels = columns[0][3], booksim_channels(net)
        with open(os.path.join(args.out, name + "_power.md"), "w") as f:
            f.write(f"### {title}\n\nWatts per block at each offered load (flits/node/cycle); cubecast prices its "
                    f"{ours_channels} channels, BookSim2 its {their_channels}.\n\n| block |"
                    + "".join(f" {l}: cubecast | BookSim2 | diff |" for l, *_ in columns) + "\n|---|"
                    + "---|---|---|" * len(columns) + "\n")
            for key, label in POWER_BLOCKS:
                f.write(f"| {key.replace('_', ' ')} |")
                for load, mine, theirs, *_ in columns:
                    d = mine[key] / theirs[key] - 1 if theirs[key] else float("nan")
                    note = ""
                    if key in PER_CHANNEL and ours_channels != their_channels:
                        per = (mine[key] / ours_channels) / (theirs[key] / their_channels) - 1
                        note = f" ({per * 100:+.2f} % a channel)"
                    f.write(f" {mine[key]:.4g} | {theirs[key]:.4g} | {d * 100:+.2f} %{note} |")
                    if key in structural or (key == "total" and ours_channels != their_channels):
                        continue  # (the total holds the channels' difference in count)
                    if key not in PER_CHANNEL or ours_channels == their_channels:
                        summary.append((name, load, key, d))
                    else:
                        summary.append((name, load, key + " a channel", per))
                f.write("\n")
            if structural:
                f.write(f"\nBookSim2's {net['n']}-cube is its 2-ary {net['n']}-mesh: routers of {2 * net['n'] + 1} ports against "
                        f"cubecast's {net['n'] + 1}, so its {', '.join(sorted(k.replace('_', ' ') for k in structural if k != 'total'))} "
                        "(and the total) differ by construction.\n")
            f.write("\nCycles averaged over: " + ", ".join(f"{l}: cubecast {cc}, BookSim2 {bc}" for l, _, _, _, cc, bc in columns) + "\n")
    worst = max(summary, key=lambda x: abs(x[3]) if x[3] == x[3] else 0)
    with open(os.path.join(args.out, "power_summary.md"), "w") as f:
        f.write("| experiment | load | largest difference (block) |\n|---|---|---|\n")  # (of the blocks built alike)
        for name in dict.fromkeys(s[0] for s in summary):
            for load in dict.fromkeys(s[1] for s in summary if s[0] == name):
                rows = [s for s in summary if s[0] == name and s[1] == load and s[3] == s[3]]
                w = max(rows, key=lambda x: abs(x[3]))
                f.write(f"| {name} | {load} | {w[3] * 100:+.2f} % ({w[2].replace('_', ' ')}) |\n")
    print(f"largest difference: {worst[3] * 100:+.2f} % ({worst[0]}, load {worst[1]}, {worst[2]}); tables in {args.out}")


if __name__ == "__main__":
    main()
