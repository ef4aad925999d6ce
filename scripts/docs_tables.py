#!/usr/bin/env python3
"""The docs' tables from their experiment files. An experiment file with a `table:` section names the
doc it belongs in and how its rows and cells are made from the experiment's results.csv; this script
runs the experiment (`cubecast experiment`, resuming a results folder of its own under build/, which
is started afresh when the cubecast binary is not the one that wrote it) and writes the table into the doc between the lines

    <!-- table NAME: scripts/docs-tables.sh regenerates it from experiments/FILE -->
    ...
    <!-- end of table NAME -->

so a table is never edited by hand. It also writes the command outputs the docs show, the Verilog
routers' Yosys tables and the figures of the prose worked out from a page's tables, these or the
experiments' (outputs(), synthesis_tables() and prose_figures() below). --check writes nothing: it regenerates each table (or, with
--affordable, only the rows the file's `check:` subset gives, which the test suite can afford) and
fails, naming the first cell that differs, if the doc's table is not what the results give.

A table section:

    table:
      doc: docs/results.md
      rows: [dim]                 # one row per value of these keys, in the results' order
      check: {dim: 1..8}          # --set's of axes for the rows the suite affords (--affordable), or skip
      columns:                    # [title, cell template, optional where: {key: value}]
        - [d, "{dim}"]
        - [bostt (optimal MNB), "{completion_slots}", {algorithm: bostt}]
        - [link use, "{link_utilisation:percent}", {algorithm: bostt}]

A template's {column} is that result column of the one row the row key and `where` select (`where`
may say `from: NAME`: another experiment's results, run as this one's); {column|V=WORD|...} shows a
value V as WORD;
{column:FORMAT} formats it: percent (x 100, one decimal, " %"), 2f, 3f, ... (decimals), thousands (with
commas), range ("least..most" over every row selected), rate=STATUS (the share of selected rows with
that status, " %"). {=c4/c3:3f} is arithmetic over the row's cells before it (c1 its first), "-"
where one is no number. A cell whose row is missing is "-"; a cell with an empty value takes the section's
`empty:` word (default "-"); a completion cell of a run whose status the section's `not_ok:` names
({deadlock: stall, ...}) is that word."""
import argparse
import csv
import fnmatch
import hashlib
import os
import re
import shutil
import subprocess
import sys

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def fmt(values, spec):
    if spec.startswith("rate="):
        status = spec[5:]
        return f"{round(100 * sum(1 for v in values if v == status) / len(values))} %" if values else "-"
    if spec == "range":
        numbers = [float(v) for v in values if v not in ("", None)]
        if not numbers:
            return ""
        lo, hi = min(numbers), max(numbers)
        show = lambda x: str(int(x)) if x == int(x) else repr(x)
        return show(lo) if lo == hi else f"{show(lo)}..{show(hi)}"
    value = values[0] if values else ""
    if value in ("", None):
        return ""
    if spec == "":
        return value
    x = float(value)
    if spec == "percent":
        return f"{100 * x:.1f} %"
    if re.fullmatch(r"[0-9]f", spec):  # decimals
        return f"{x:.{spec[0]}f}"
    if spec == "thousands":
        return f"{int(x):,}"
    raise SystemExit(f"unknown format '{spec}'")


def make_table(name, section, results, others):
    rows = list(csv.DictReader(open(results)))
    keys = section["rows"]
    row_keys = []
    for r in rows:
        k = tuple(r.get(c, "") for c in keys)
        if k not in row_keys:
            row_keys.append(k)
    empty = section.get("empty", "-")
    not_ok = section.get("not_ok", {})  # a status word for a completion cell of a run that did not finish
    columns = section["columns"]
    lines = ["| " + " | ".join(str(c[0]) for c in columns) + " |", "|" + "---|" * len(columns)]
    table = {}
    for k in row_keys:
        cells = []
        for col in columns:
            template, where = str(col[1]), dict(col[2] if len(col) > 2 else {})
            source = others[where.pop("from")] if "from" in where else rows  # (another experiment's results)
            chosen = [r for r in source if tuple(r.get(c, "") for c in keys) == k and
                      all(r.get(wk, "") == str(wv) for wk, wv in where.items())]
            if not chosen:
                cells.append("-")
                continue
            if chosen[0].get("status") in not_ok and "{completion" in template:
                cells.append(not_ok[chosen[0]["status"]])  # (a run that did not finish has no completion)
                continue
            blank = False

            def fill(m):
                nonlocal blank
                if m.group(1).startswith("="):  # {=c4/c3:3f}: arithmetic over this row's cells so far
                    expr, _, spec = m.group(1)[1:].partition(":")
                    try:
                        value = eval(re.sub(r"c(\d+)", lambda c: repr(float(cells[int(c.group(1)) - 1].replace(",", ""))), expr),
                                     {"__builtins__": {}})
                    except (ValueError, IndexError, ZeroDivisionError):  # (a cell that is no number: a stall, a '-')
                        return "-"
                    return fmt([str(value)], spec)
                inner, *words = m.group(1).split("|")  # {column|value=word|...}: a value shown as a word
                column, _, spec = inner.partition(":")
                if column not in chosen[0]:
                    raise SystemExit(f"table {name}: no result column '{column}' (in {template})")
                aggregate = spec == "range" or spec.startswith("rate=")
                text = fmt([r[column] for r in (chosen if aggregate else chosen[:1])], spec)
                if words:
                    return dict(w.split("=", 1) for w in words).get(text, text)
                blank = blank or text == ""
                return text

            cell = re.sub(r"\{([^}]+)\}", fill, template)
            cells.append(empty if blank else cell)
        table[k] = cells
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines), table


def results_of(args, file, name, sets):
    """Runs (or resumes) the experiment into its folder under --out: the folder."""
    out = os.path.join(args.out, name + ("-check" if sets else ""))
    # Results resumed from another binary would be another model's: a folder written by another one
    # (or by an unknown one) is started afresh.
    try:
        with open(args.cubecast, "rb") as f:
            binary = hashlib.sha256(f.read()).hexdigest()
    except OSError as e:
        sys.exit(f"--cubecast {args.cubecast}: cannot be read ({e.strerror}): build it first (scripts/setup.sh)")
    stamp = os.path.join(out, "binary.sha256")
    if os.path.isdir(out):
        written_by = open(stamp).read().strip() if os.path.exists(stamp) else ""
        if written_by != binary:
            shutil.rmtree(out)
    command = [args.cubecast, "experiment", os.path.join(ROOT, "experiments", file), "--out", out, "--no-plots"]
    for k, v in sets.items():
        command += ["--set", f"{k}={v}"]
    run = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if run.returncode not in (0, 1, 3):  # (points that fail or stall are rows too)
        sys.exit(f"{file}: the experiment failed (exit {run.returncode}): {run.stderr.strip()}")
    try:
        with open(stamp, "w") as f:
            f.write(binary + "\n")
    except OSError as e:
        sys.exit(f"{stamp}: cannot be written: {e.strerror}")
    return out


def markers(name, file):
    return (f"<!-- table {name}: scripts/docs-tables.sh regenerates it from experiments/{file} -->",
            f"<!-- end of table {name} -->")


def doc_pages():
    """The pages the docs' markers may sit in: README.md and docs/*.md, relative to ROOT."""
    return ["README.md"] + sorted("docs/" + f for f in os.listdir(os.path.join(ROOT, "docs")) if f.endswith(".md"))


OUTPUT = re.compile(r"<!-- output (?P<name>[\w-]+): build/cubecast (?P<args>[^|]*?)(?: \| keep: (?P<keep>.*?))?"
                    r"(?P<suite> \| in the suite)? -->\n(?P<body>.*?)<!-- end of output (?P=name) -->", re.S)


def outputs(args, failed):
    """The command outputs the docs show (README.md and docs/*.md), between the lines
    <!-- output NAME: build/cubecast ARGS | keep: REGEX | in the suite --> and <!-- end of output NAME -->:
    the command's first line and those matching REGEX (all without it), '...' where lines are left
    out; "in the suite" (optional): --affordable checks it too."""
    for doc in doc_pages():
        path = os.path.join(ROOT, doc)
        text = open(path).read()

        def regenerate(m):
            if (args.names and m["name"] not in args.names) or (args.affordable and not m["suite"]):
                return m.group(0)
            run = subprocess.run([args.cubecast] + m["args"].split(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 text=True, env=dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1"))
            lines = run.stdout.splitlines()
            keep = re.compile(m["keep"]) if m["keep"] else None
            shown, skipped = [], False
            for i, line in enumerate(lines):
                if keep is None or keep.search(line) or i == 0:
                    if skipped:
                        shown.append("  ...")
                    shown.append(line)
                    skipped = False
                else:
                    skipped = True
            if skipped:
                shown.append("  ...")
            body = "    $ build/cubecast " + m["args"] + "\n" + "".join("    " + l + "\n" for l in shown)
            if args.check and body != m["body"]:
                old = [l for l in m["body"].splitlines() if l not in body.splitlines()]
                print(f"{doc}: output {m['name']}: the doc says {old[:1]}, the command prints otherwise")
                failed.append(m["name"])
            elif args.check:
                print(f"{doc}: output {m['name']}: as the command prints it")
            return m.group(0).replace(m["body"], body)

        new = OUTPUT.sub(regenerate, text)
        if new != text and not args.check:
            open(path, "w").write(new)
            print(f"{doc}: outputs written")


SYNTHESIS = re.compile(r"<!-- synthesis (?P<name>[\w-]+): (?P<command>rtl/synth\.sh --markdown (?P<args>[^|]*?))"
                       r"(?P<steps> \| with steps)? -->\n(?P<body>.*?)<!-- end of synthesis (?P=name) -->", re.S)


def row_cells(line):
    """A Markdown table line's cells, stripped."""
    return [c.strip() for c in line.strip().strip("|").split("|")]


def synthesis_table(body):
    """A synthesis block's first table, synth.sh's own lines (the steps, if any, follow a blank line)."""
    lines = body.splitlines()
    first = next((i for i, l in enumerate(lines) if not l.startswith("|")), len(lines))
    return "".join(l + "\n" for l in lines[:first])


def synthesis_rows(body):
    """A synthesis table's rows: (configuration, [numbers]) each, from its Markdown lines."""
    rows = []
    for line in body.splitlines():
        cells = row_cells(line)
        if not line.startswith("|"):
            continue
        if len(cells) < 3:
            return None, f"a line that is no row of synth.sh's ({line.strip()})"
        if cells[1] in ("total", "---"):
            continue
        if not all(re.fullmatch(r"[0-9]{1,3}(,[0-9]{3})*", c) for c in cells[1:]):
            return None, f"row {cells[0]} has a cell that is not a count ({cells[1:]})"
        rows.append((cells[0], [int(c.replace(",", "")) for c in cells[1:]]))
    return rows, None


def synthesis_steps(header, rows):
    """What each row adds to the row before it, block by block: the step table below a ladder of builds,
    each adding one feature to the one before."""
    titles = row_cells(header)
    lines = ["| step | " + " | ".join(titles[1:]) + " |", "|" + "---|" * len(titles)]
    for (before, b), (after, a) in zip(rows, rows[1:]):
        cells = [f"{x - y:+,}" if x != y else "0" for x, y in zip(a, b)]
        share = 100 * (a[0] - b[0]) / b[0]
        cells[0] += f" ({share:+.2f} %)" if abs(share) < 1 else f" ({share:+.1f} %)"  # (a small step not shown as 0)
        lines.append(f"| {before} to {after} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def synthesis_tables(args, failed):
    """The Verilog routers' Yosys tables (docs/rtl-area.md), between the lines
    <!-- synthesis NAME: rtl/synth.sh --markdown [--ib] CONFIG ... | with steps --> and
    <!-- end of synthesis NAME -->: the command's table, and with "with steps" a table of what each row
    adds to the row before. Synthesis takes minutes a row, so it runs only with --synthesis; --check
    (without it) holds each table to what synth.sh would write: its header, a row for each
    configuration the command names in their order, every row's blocks adding up to its total, and the
    steps computed from the rows."""
    headers = {}  # (synth.sh's header lines, by router)
    for doc in doc_pages():
        path = os.path.join(ROOT, doc)
        text = open(path).read()

        def regenerate(m):
            if args.names and m["name"] not in args.names:
                return m.group(0)
            words = m["args"].split()
            configs = [w for w in words if w != "--ib"]
            if not configs or any(w.startswith("-") for w in configs):
                failed.append(m["name"])
                print(f"{doc}: synthesis {m['name']}: '{m['command']}' names no configurations (accepted: "
                      f"[--ib] CONFIG ...)")
                return m.group(0)
            synth = [os.path.join(ROOT, "rtl", "synth.sh"), "--markdown"] + words
            if args.synthesis:
                run = subprocess.run(synth, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                if run.returncode != 0:
                    sys.exit(f"{doc}: synthesis {m['name']}: {m['command']} failed (exit {run.returncode}): "
                             f"{run.stderr.strip()}")
                table = run.stdout
            else:
                table = synthesis_table(m["body"])
            router = ["--ib"] if "--ib" in words else []
            if tuple(router) not in headers:
                headers[tuple(router)] = subprocess.run(synth[:2] + router + ["--header"], stdout=subprocess.PIPE, text=True,
                                                        check=True).stdout
            header = headers[tuple(router)]
            rows, problem = synthesis_rows(table)
            if problem is None and not table.startswith(header):
                problem = f"its header is not synth.sh's ({header.splitlines()[0]})"
            if problem is None and [r[0] for r in rows] != configs:
                problem = f"its rows are {[r[0] for r in rows]}, the command's configurations {configs}"
            if problem is None:
                wrong = [name for name, n in rows if n[0] != sum(n[1:])]
                if wrong:
                    problem = f"row {wrong[0]}: its blocks do not add up to its total"
            if problem is None:
                body = table + ("\n" + synthesis_steps(header.splitlines()[0], rows) if m["steps"] else "")
                if args.check and body != m["body"]:
                    differ = [l for l in m["body"].splitlines() if l not in body.splitlines()]
                    problem = f"the doc says {differ[:1]}, " + ("synthesis gives otherwise" if args.synthesis
                                                                else "its rows give otherwise")
            if problem:
                print(f"{doc}: synthesis {m['name']}: {problem}")
                failed.append(m["name"])
                return m.group(0)
            if args.check:
                print(f"{doc}: synthesis {m['name']}: {len(rows)} rows as synth.sh writes them"
                      + ("" if args.synthesis else " (not synthesised: --synthesis does)"))
            return m.group(0).replace(m["body"], body)

        new = SYNTHESIS.sub(regenerate, text)
        if new != text and not args.check:
            open(path, "w").write(new)
            print(f"{doc}: synthesis tables written")


FIGURE = re.compile(r"(?P<figure>\d[\d,]*(?:\.\d+)?)<!-- = (?P<expr>.+?) -->")
REFERENCE = re.compile(r"\{(?P<table>[\w-]+) (?P<row>\[[^\]{}]*\]\*?|\S+) (?P<column>[^{}]+)\}")
EXPERIMENT_TABLE = re.compile(r"<!-- table (?P<name>[\w-]+): scripts/docs-tables\.sh [^\n]*-->\n(?P<body>.*?)"
                              r"<!-- end of table (?P=name) -->", re.S)


def page_experiment_tables(text):
    """A page's experiment tables as it shows them: {name: {"columns": [titles], "lines": [[cells]]}}."""
    tables = {}
    for m in EXPERIMENT_TABLE.finditer(text):
        lines = [row_cells(x) for x in m["body"].strip().splitlines()]
        tables[m["name"]] = {"columns": lines[0], "lines": lines[2:]}
    return tables


def shown_number(cell):
    """An experiment table's cell as a number ("1,031" 1031, "99.8 %" 99.8); a cell that is none
    ("stall", "-") stays text, so a working that computes with it fails."""
    text = cell.replace(",", "").removesuffix(" %")
    try:
        return int(text)
    except ValueError:
        try:
            return float(text)
        except ValueError:
            return cell


def experiment_cells(t, name, row, column):
    """The cells of experiment table `t` that a reference names: `row` is [a | b | ...], the row whose
    first cells match the patterns a, b, ... (fnmatch, alternatives joined by " or ": cut-through or
    wormhole), exactly one; with a * after it, every such row (at least one); * alone, every row.
    `column` is a title or such a pattern of titles (V=* (1 fl)), "TITLE #2" the second column of a
    title the table repeats. One row and one column give the number; else the list, row by row, each
    row's columns in the table's order."""
    every = row.endswith("*")
    wanted = [c.strip() for c in row.rstrip("*")[1:-1].split("|")] if row != "*" else []
    matches = lambda pattern, cell: any(fnmatch.fnmatchcase(cell, p.strip()) for p in pattern.split(" or "))
    rows = [line for line in t["lines"] if len(line) >= len(wanted) and all(matches(w, c) for w, c in zip(wanted, line))]
    if not rows or (len(rows) > 1 and not every):
        raise ValueError(f"table {name}: {len(rows)} rows begin {row.rstrip('*')}" +
                         (" (a * after the brackets takes them all)" if rows else ""))
    nth = re.fullmatch(r"(?P<title>.*?) #(?P<n>\d+)", column)  # (the nth column of a title the table repeats)
    columns = [k for k, title in enumerate(t["columns"]) if matches(nth["title"] if nth else column, title)]
    if nth:
        columns = columns[int(nth["n"]) - 1:int(nth["n"])]
    if not columns:
        raise ValueError(f"table {name} has no column '{column}' (accepted {', '.join(t['columns'])})")
    values = [shown_number(line[k]) for line in rows for k in columns]
    return repr(values[0] if len(values) == 1 and not every and "*" not in column and " or " not in column else values)


def same(values):
    """The one value a list holds throughout (a claim that something is the same everywhere)."""
    if len(set(values)) != 1:
        raise ValueError(f"not one value throughout: {sorted(set(map(str, values)))}")
    return values[0]


def page_synthesis_tables(text):
    """A page's synthesis tables: {name: {"columns": [titles], "rows": {configuration: [numbers]}}}."""
    tables = {}
    for m in SYNTHESIS.finditer(text):
        table = synthesis_table(m["body"])
        rows, _ = synthesis_rows(table)
        tables[m["name"]] = {"columns": row_cells(table.split("\n", 1)[0])[1:], "rows": dict(rows or [])}
    return tables


def figure_text(value, decimals, commas):
    """A figure as the prose writes it: rounded half up to its decimals, thousands with commas."""
    scaled = int(abs(value) * 10 ** decimals + 0.5) * (1 if value >= 0 else -1)
    whole, part = divmod(abs(scaled), 10 ** decimals) if decimals else (abs(scaled), 0)
    text = (f"{whole:,}" if commas else str(whole)) + (f".{part:0{decimals}d}" if decimals else "")
    return ("-" if scaled < 0 else "") + text


def prose_figures(args, failed):
    """Figures in the docs' prose worked out from a table on their page, each written with its working
    in a comment after it: 102,974<!-- = ({ideal-grid 4:4:2:8 total} - {ideal-grid 2:4:2:8 total}) / 2 -->
    ({TABLE ROW COLUMN} a synthesis table's cell by its configuration and column title; {TABLE * COLUMN}
    the column's cells in row order, for min, max, sum and zip; in an experiment table's, ROW is
    [first cells | ...], experiment_cells() says how: 323<!-- = {collectives-real-routers [mnb/quadrant |
    * | through the node | wormhole | 0] V=2 B=4 (4 fl)} -->; same(list) is its one value, or fails).
    Without --check the figures are written again from their tables (after --synthesis, from the new
    ones); --check fails on one that differs."""
    for doc in doc_pages():
        path = os.path.join(ROOT, doc)
        text = open(path).read()
        tables = page_synthesis_tables(text)
        experiments = page_experiment_tables(text)
        counted, wrong, unworkable = 0, [], []

        def cell(m):
            if m["table"] in experiments:
                return experiment_cells(experiments[m["table"]], m["table"], m["row"], m["column"].strip())
            t = tables.get(m["table"])
            if t is None:
                raise ValueError(f"no synthesis or experiment table {m['table']} on the page")
            column = m["column"].strip()
            if column not in t["columns"]:
                raise ValueError(f"table {m['table']} has no column '{column}' (accepted {', '.join(t['columns'])})")
            k = t["columns"].index(column)
            if m["row"] == "*":
                return repr([n[k] for n in t["rows"].values()])
            if m["row"] not in t["rows"]:
                raise ValueError(f"table {m['table']} has no row {m['row']}")
            return str(t["rows"][m["row"]][k])

        def rewrite(m):
            nonlocal counted
            line = text.count("\n", 0, m.start()) + 1
            try:
                value = eval(REFERENCE.sub(cell, m["expr"]), {"__builtins__": {}, "min": min, "max": max, "sum": sum,
                                                               "zip": zip, "abs": abs, "len": len, "same": same})
            except Exception as e:  # (a working that names no cell, or is no arithmetic)
                unworkable.append(f"{doc}:{line}: the working of {m['figure']} fails: {e}")
                return m.group(0)
            given = m["figure"]
            decimals = len(given.split(".")[1]) if "." in given else 0
            made = figure_text(value, decimals, "," in given or abs(value) >= 1000)
            counted += 1
            if made != given:
                wrong.append(f"{doc}:{line}: the prose says {given}, its tables give {made} ({m['expr']})")
            return m.group(0).replace(given, made, 1)

        new = FIGURE.sub(rewrite, text)
        if not counted and not unworkable:
            continue
        if args.check or unworkable:  # (a page with a figure that cannot be worked out is not rewritten)
            for w in unworkable + wrong:
                print(w)
            failed.extend(unworkable + wrong)
            if not unworkable and not wrong:
                print(f"{doc}: {counted} figures in the prose as its tables give them")
        elif new != text:
            open(path, "w").write(new)
            print(f"{doc}: prose figures written ({len(wrong)} changed of {counted})")


def main():
    ap = argparse.ArgumentParser(description="the docs' tables from experiments/*.yaml")
    ap.add_argument("--cubecast", default=os.path.join(ROOT, "build", "cubecast"))
    ap.add_argument("--check", action="store_true", help="write nothing; exit 1 if a doc's table differs")
    ap.add_argument("--affordable", action="store_true", help="with --check: only each file's check: rows")
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "docs-tables"), help="the experiments' results folders")
    ap.add_argument("--synthesis", action="store_true",
                    help="also synthesise the Verilog routers' tables (rtl/synth.sh; minutes a row, hours in all)")
    ap.add_argument("names", nargs="*", help="experiment, output or synthesis names (default: all)")
    args = ap.parse_args()
    if args.names:
        known = set()
        for file in os.listdir(os.path.join(ROOT, "experiments")):
            if file.endswith(".yaml"):
                spec = yaml.safe_load(open(os.path.join(ROOT, "experiments", file)))
                if spec.get("table"):
                    known.add(spec.get("name", file[:-5]))
        for doc in doc_pages():
            text = open(os.path.join(ROOT, doc)).read()
            known.update(m["name"] for pattern in (OUTPUT, SYNTHESIS) for m in pattern.finditer(text))
        unknown = [n for n in args.names if n not in known]
        if unknown:
            print(f"docs_tables.py: '{unknown[0]}' is no table, output or synthesis of the docs: accepted "
                  f"{', '.join(sorted(known))}", file=sys.stderr)
            sys.exit(2)
    failed = 0
    for file in sorted(os.listdir(os.path.join(ROOT, "experiments"))):
        if not file.endswith(".yaml"):
            continue
        spec = yaml.safe_load(open(os.path.join(ROOT, "experiments", file)))
        section = spec.get("table")
        name = spec.get("name", file[:-5])
        if not section or (args.names and name not in args.names):
            continue
        check = section.get("check") or {}
        if args.affordable and check == "skip":  # (a file none of whose rows the suite affords)
            print(f"{section['doc']}: table {name}: not checked (check: skip)")
            continue
        sets = check if args.affordable else {}
        out = results_of(args, file, name, sets)
        others = {}
        for col in section["columns"]:
            other = (col[2] if len(col) > 2 else {}).get("from")
            if other and other not in others:
                others[other] = list(csv.DictReader(open(os.path.join(results_of(args, other + ".yaml", other, sets), "results.csv"))))
        text, cells = make_table(name, section, os.path.join(out, "results.csv"), others)
        doc = os.path.join(ROOT, section["doc"])
        body = open(doc).read()
        begin, end = markers(name, file)
        if begin not in body or end not in body:
            sys.exit(f"{section['doc']} has no lines '{begin}' ... '{end}' for table {name}")
        head, rest = body.split(begin, 1)
        old, tail = rest.split(end, 1)
        if args.check:
            committed = {}
            for line in old.strip().splitlines()[2:]:
                parts = row_cells(line)
                committed[tuple(parts[:len(section["rows"])])] = parts
            keys = section["rows"]
            # (the row key's cells are its first columns when the table shows them; else whole rows compare)
            for k, row in cells.items():
                match = next((v for kk, v in committed.items() if v == row or kk == tuple(row[:len(keys)])), None)
                if match != row:
                    print(f"{section['doc']}: table {name}, row {dict(zip(keys, k))}: the doc says {match}, "
                          f"the results give {row}")
                    failed += 1
                    break
            else:
                print(f"{section['doc']}: table {name}: {len(cells)} rows as the results give")
        else:
            open(doc, "w").write(head + begin + "\n" + text + "\n" + end + tail)
            print(f"{section['doc']}: table {name} written ({len(cells)} rows)")
    broken = []  # (with --affordable, the outputs marked "in the suite" only)
    outputs(args, broken)
    synthesis_tables(args, broken)
    prose_figures(args, broken)  # (every time: after a table is made again, its page's figures follow it)
    failed += len(broken)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
