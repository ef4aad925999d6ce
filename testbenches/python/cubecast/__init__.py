"""cubecast from Python: runs and experiments as dicts and tables.

    import cubecast
    report = cubecast.run(task="mnb", dim=10, buffering="input", vcs=2)
    report["completion_cycles"], report["power"]["watts"]["total"]   # with power="default"
    rows = cubecast.experiment("experiments/energy-mnb.yaml")          # results.csv as a list of dicts

Every option of `cubecast run` is a keyword (underscores for dashes: vc_depth=8 is --vc-depth 8; True
for a flag, a list for a comma list) and is checked as on the command line, in this process: a bad
value raises ValueError with the command's one line. The command itself is linked into the module
(cubecast._core, pybind11, built with the command in build/python); SystemC elaborates once per
process, so each run is a process of its own, forked from this one, and gives exactly what the
command gives. See docs/python.md.
"""
import csv
import json
import os
import tempfile

try:
    from . import _core
except ImportError as e:  # the package imported from its sources, not from the build
    raise ImportError("cubecast's compiled core (_core) is not beside this package: build it (bash scripts/test.sh, or "
                      "cmake --build build --target cubecast_python) and import it from build/python "
                      "(export PYTHONPATH=$PWD/build/python)") from e

__all__ = ["run", "experiment", "command", "frame", "CubecastError"]


class CubecastError(RuntimeError):
    """The command ended in a way that is neither a result nor bad input (a crash, an internal error)."""


def _options(options):
    args = []
    for key, value in options.items():
        if value is None:
            continue
        option = "--" + key.replace("_", "-")
        if isinstance(value, bool):  # (a flag's "=true" or "=false": an option that takes a value says it is not one)
            args.append(option + ("=true" if value else "=false"))
        elif isinstance(value, (list, tuple)):
            args += [option, ",".join(str(v) for v in value)]
        else:
            args += [option, str(value)]
    return args


def _bad_input(err):
    lines = [x for x in err.splitlines() if x.strip()]
    line = lines[-1] if lines else "bad input"
    return ValueError(line[len("cubecast: "):] if line.startswith("cubecast: ") else line)


def command(*args):
    """Any cubecast command, as on the command line after `cubecast` (command("sweep", "--dims", "1..4")),
    run in a process of its own: (exit code, stdout, stderr) as text. Bad input is exit 2 here, not
    an exception; run() and experiment() raise ValueError for it."""
    code, out, err = _core.call([str(a) for a in args])
    return code, out.decode("utf-8", "replace"), err.decode("utf-8", "replace")


def _keywords_only(call, positional):
    if positional:
        raise TypeError(f"{call}() takes keywords only: {positional[0]!r} was given without a name (task={positional[0]!r}, "
                        f"say)")


def _flag(call, name, value):
    if not isinstance(value, bool):
        raise TypeError(f"{call}(): {name}={value!r} is not True or False" +
                        (" (trace_path= writes the trace to a file of your choosing)" if name == "trace" else ""))


def run(*positional, trace=False, **options):
    """One run: its report (the command's --json) as a dict. A run that stalled or failed a check is a
    report too (its "status" says so); a value the command refuses raises ValueError, a call that is
    not one (an option given alone, trace= not True or False) TypeError. trace=True adds the report's
    "trace": the link transmissions as a list of dicts (start, end, src, dst, origin, msg, part, dest,
    kind; cubecast.frame() makes a pandas DataFrame of them)."""
    _keywords_only("run", positional)
    _flag("run", "trace", trace)
    if "json" in options:
        raise ValueError("json: run() always reads the command's JSON report; accepted the run options only")
    if "help" in options:
        raise ValueError("help: run() runs; accepted the run options only (cubecast.command('run', '--help') lists them)")
    with tempfile.TemporaryDirectory(prefix="cubecast-") as folder:
        trace_path = options.get("trace_path")  # ('' is the command's to refuse, as --trace '')
        if trace_path is None and trace:
            trace_path = os.path.join(folder, "trace.csv")
        args = ["run", *_options({k: v for k, v in options.items() if k != "trace_path"})]
        if trace_path is not None:
            args += ["--trace", str(trace_path)]
        args.append("--json")
        bad = _core.check(args)
        if bad is not None:
            raise _bad_input(bad)
        code, out, err = command(*args)
        if code == _core.exit_bad_input:
            raise _bad_input(err)
        if code not in (_core.exit_ok, _core.exit_check_failed, _core.exit_stuck) or not out.strip():
            raise CubecastError(f"cubecast {' '.join(args)} ended with exit {code}: {err.strip()[-500:]}")
        try:
            report = json.loads(out)
        except ValueError:  # (the command printed something that is no report)
            raise CubecastError(f"cubecast {' '.join(args)} printed no JSON report: {out.strip()[:300]}") from None
        if trace_path is not None:
            with open(trace_path) as f:
                report["trace"] = [_numbers(r) for r in csv.DictReader(line for line in f if not line.startswith("#"))]
        return report


def experiment(path, jobs=None, out=None, set=None, plots=False):
    """An experiment file's study, its points on every core (jobs=N to change it): its results table
    (results.csv) as a list of dicts, numbers as numbers. out: its results folder (kept; else a
    temporary one); set: {key: value} overrides, as --set; plots=True draws the file's plots in out."""
    _flag("experiment", "plots", plots)
    if set is not None and not isinstance(set, dict):
        raise TypeError(f"experiment(): set={set!r} is not a dict ({{'dim': '2..6'}}, each as --set KEY=VALUE)")
    with tempfile.TemporaryDirectory(prefix="cubecast-") as folder:
        target = out if out is not None else os.path.join(folder, "results")  # ('' is the command's to refuse)
        args = ["experiment", str(path), "--out", str(target)]
        if jobs:
            args += ["--jobs", str(jobs)]
        for key, value in (set or {}).items():
            args += ["--set", f"{key}={value}"]
        if not plots:
            args.append("--no-plots")
        code, _, err = command(*args)
        if code == _core.exit_bad_input:
            raise _bad_input(err)
        results = os.path.join(target, "results.csv")
        if code not in (_core.exit_ok, _core.exit_check_failed, _core.exit_stuck) or not os.path.exists(results):
            raise CubecastError(f"cubecast experiment {path} ended with exit {code}: {err.strip()[-500:]}")
        with open(results) as f:
            return [_numbers(r) for r in csv.DictReader(f)]


def frame(rows):
    """A pandas DataFrame of rows (a trace, or an experiment's results); ImportError if pandas is not
    installed (Debian: python3-pandas)."""
    try:
        import pandas
    except ImportError as e:
        raise ImportError("cubecast.frame() needs pandas: apt-get install python3-pandas (the rows are plain dicts without it)") from e
    return pandas.DataFrame(rows)


def _numbers(row):
    out = {}
    for k, v in row.items():
        try:
            out[k] = int(v)
        except (TypeError, ValueError):
            try:
                out[k] = float(v)
            except (TypeError, ValueError):
                out[k] = v
    return out
