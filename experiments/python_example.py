#!/usr/bin/env python3
"""cubecast from Python, worked through (docs/python.md): a sweep, a plot, an energy comparison.

    PYTHONPATH=build/python python3 experiments/python_example.py [OUT_FOLDER]

1. A sweep: paper 003's optimal MNB (bostt) and the SBT baseline on the d-cube's input-buffered
   router, d = 2..7, each run's completion against the paper's ceil((2^d - 1)/d) slots.
2. A plot (matplotlib): completion cycles over d, both algorithms, the paper's time dashed:
   OUT_FOLDER/mnb_cycles.png.
3. Energy: the same runs priced (--power default), energy per delivered byte, and what the optimal
   schedule saves over the baseline; then the experiment file experiments/energy-mnb.yaml run through
   cubecast.experiment() and its rows checked against the sweep's.
The suite runs it (test python_example) and it exits 1 if a figure is not what the paper says.
"""
import math
import os
import sys

import cubecast

out = sys.argv[1] if len(sys.argv) > 1 else "results/python-example"
os.makedirs(out, exist_ok=True)

# 1. The sweep.
flits = 4
rows = []
for d in range(2, 8):
    for algorithm in ("bostt", "sbt"):
        r = cubecast.run(task="mnb", algorithm=algorithm, dim=d, packet_flits=flits, buffering="input", vcs=1, vc_depth=8,
                         power="default")
        rows.append({"d": d, "algorithm": algorithm, "cycles": r["completion_cycles"], "status": r["status"],
                     "paper_cycles": r.get("paper_cycles"), "pj_per_byte": r["power"]["picojoules_per_delivered_byte"],
                     "watts": r["power"]["watts"]["total"]})
print(f"{'d':>2} {'algorithm':>9} {'cycles':>7} {'paper':>6} {'pJ/B':>7} {'W':>8}")
for x in rows:
    print(f"{x['d']:>2} {x['algorithm']:>9} {x['cycles']:>7} {x['paper_cycles'] or '-':>6} {x['pj_per_byte']:>7.2f} {x['watts']:>8.2f}")
failed = False
for x in rows:
    optimum = math.ceil((2 ** x["d"] - 1) / x["d"]) * flits  # 003 §2, in cycles of this packet length
    if x["status"] != "ok" or (x["algorithm"] == "bostt" and x["cycles"] != optimum):
        print(f"not the paper's time: {x}", file=sys.stderr)
        failed = True

# 2. The plot.
try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    print("matplotlib is not installed (Debian: python3-matplotlib): no plot", file=sys.stderr)
    sys.exit(1)
fig, ax = plt.subplots(figsize=(6, 4))
for algorithm in ("bostt", "sbt"):
    mine = [x for x in rows if x["algorithm"] == algorithm]
    ax.plot([x["d"] for x in mine], [x["cycles"] for x in mine], marker="o", label=algorithm)
ds = sorted({x["d"] for x in rows})
ax.plot(ds, [math.ceil((2 ** d - 1) / d) * flits for d in ds], "k--", label="paper 003: ceil((2^d-1)/d) slots x 4 flits")
ax.set_yscale("log")
ax.set_xlabel("dimension d")
ax.set_ylabel("completion (cycles)")
ax.set_title("MNB on the d-cube's input-buffered router, 4-flit packets")
ax.legend()
fig.tight_layout()
plot = os.path.join(out, "mnb_cycles.png")
fig.savefig(plot)
print(f"plot: {plot}")

# 3. Energy: what the optimal schedule saves a byte, and the experiment file's rows.
for d in ds:
    b, s = (next(x for x in rows if x["d"] == d and x["algorithm"] == a) for a in ("bostt", "sbt"))
    print(f"d = {d}: bostt {b['pj_per_byte']:.2f} pJ/B against sbt {s['pj_per_byte']:.2f} "
          f"({100 * (b['pj_per_byte'] / s['pj_per_byte'] - 1):+.1f} %)")
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
table = cubecast.experiment(os.path.join(root, "experiments", "energy-mnb.yaml"), set={"dim": "2..7"})
for t in table:
    if t["algorithm"] == "st" or t["buffering"] != "input":  # (the sweep above ran the input-buffered router)
        continue
    mine = next(x for x in rows if x["d"] == t["dim"] and x["algorithm"] == t["algorithm"])
    if t["completion_cycles"] != mine["cycles"] or abs(t["power.picojoules_per_delivered_byte"] - mine["pj_per_byte"]) > 1e-9:
        print(f"the experiment's row differs from the sweep's: {t['algorithm']} d = {t['dim']}", file=sys.stderr)
        failed = True
print(f"experiment energy-mnb: {len(table)} rows, the same as the sweep's where they meet")
sys.exit(1 if failed else 0)
