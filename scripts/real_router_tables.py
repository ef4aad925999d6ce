#!/usr/bin/env python3
"""Markdown tables of experiments/collectives-real-routers.yaml's results (docs/routers.md): per
workload, completion in cycles on each input-buffered router (rows: switching mode and router delay;
columns: virtual channels x depth, for 1- and 4-flit packets) beside the ideal router and the paper.
Usage: scripts/real_router_tables.py RESULTS_DIR"""
import csv
import os
import sys

rows = list(csv.DictReader(open(os.path.join(sys.argv[1], "results.csv"))))
workloads = []
for r in rows:
    w = (r["task"], r["algorithm"], r["topology"], r["dim"], r["radix"], r["k"])
    if w not in workloads:
        workloads.append(w)


def cell(r):
    if r is None:
        return "-"
    if r["status"] == "ok":
        return r["completion_cycles"]
    return {"deadlock": "stall", "check_failed": "failed", "timeout": "timeout"}.get(r["status"], r["status"])


for task, algorithm, topology, dim, radix, k in workloads:
    mine = [r for r in rows if (r["task"], r["algorithm"], r["topology"], r["dim"], r["radix"], r["k"]) ==
            (task, algorithm, topology, dim, radix, k)]
    net = f"{radix}x{radix} torus" if topology == "torus" else f"{dim}-cube"
    print(f"#### {task}/{algorithm} on the {net}" + (f", M = {k}" if k else "") + "\n")
    ideal = {r["packet-flits"]: r for r in mine if r["buffering"] == "output"}
    for flits in ("1", "4"):
        i = ideal.get(flits)
        print(f"{flits}-flit packets: the paper's time {i['paper_cycles'] or '-'} cycles, the ideal router {cell(i)}.  ")
    print()
    configs = [(v, b) for v in ("1", "2", "4") for b in ("4", "16")]
    print("| switching | R | " + " | ".join(f"V={v} B={b} ({f} fl)" for f in ("1", "4") for v, b in configs) + " |")
    print("|---|---|" + "---|" * (2 * len(configs)))
    for sw in ("store-forward", "cut-through", "wormhole"):
        for rd in ("0", "3"):
            cells = []
            for f in ("1", "4"):
                for v, b in configs:
                    m = [r for r in mine if r["buffering"] == "input" and r["packet-flits"] == f and r["vcs"] == v and
                         r["vc-depth"] == b and r["switching"] == sw and r["router-delay"] == rd]
                    cells.append(cell(m[0] if m else None))
            print(f"| {sw} | {rd} | " + " | ".join(cells) + " |")
    print()
