"""The Python module (testbenches/python: the command linked into Python) against the command built
beside it (CUBECAST_BIN): the same report, the same one-line errors as ValueError, raised before any
process is started, the trace as rows, an experiment's table, each run a process of its own."""
import json
import math
import os
import signal
import subprocess
import threading
import time
import unittest

import cubecast

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
COMMAND = os.environ["CUBECAST_BIN"]  # the command, to hold the module to


class Module(unittest.TestCase):
    def test_a_run_is_its_report(self):
        r = cubecast.run(task="mnb", dim=4)
        self.assertEqual(r["status"], "ok")
        self.assertEqual(r["completion_cycles"], math.ceil((2 ** 4 - 1) / 4))  # 003 §2, 1-flit packets
        self.assertEqual(r["nodes"], 16)
        # keywords are the command's options, underscores for dashes, True a flag, a list a comma list
        ib = cubecast.run(task="mnb", dim=4, buffering="input", vcs=2, vc_depth=4, power="default")
        self.assertEqual(ib["router"]["vc_depth"], 4)
        self.assertGreater(ib["power"]["watts"]["total"], 0)
        kb = cubecast.run(task="kb", algorithm="same-order", dim=4, sources=[0, 5, 9])
        self.assertEqual(kb["deliveries"], 3 * 15)
        t = cubecast.run(task="traffic", topology="array", dim=2, radix=4, algorithm="dor", rate=0.1, window=200,
                         warmup_cycles=100, drain=200, buffering="input", self_packets=True)
        self.assertEqual(t["traffic"]["pattern"], "uniform")

    def test_the_same_report_as_the_command(self):
        args = ["run", "--task", "te", "--dim", "3", "--json"]
        direct = subprocess.run([COMMAND, *args], capture_output=True, text=True)
        mine = cubecast.run(task="te", dim=3)
        theirs = json.loads(direct.stdout)
        for k in ("wall_seconds", "elaboration_seconds", "router_cycles_per_second", "packet_hops_per_second"):
            mine.pop(k), theirs.pop(k)
        self.assertEqual(mine, theirs)

    def test_bad_input_is_the_commands_line(self):
        direct = subprocess.run([COMMAND, "run", "--task", "mnb", "--dim", "4", "--vc-dept", "4"],
                                capture_output=True, text=True)
        self.assertEqual(direct.returncode, 2)
        with self.assertRaises(ValueError) as e:
            cubecast.run(task="mnb", dim=4, vc_dept=4)
        self.assertEqual(str(e.exception), direct.stderr.strip().removeprefix("cubecast: "))
        self.assertIn("did you mean --vc-depth", str(e.exception))
        # True for an option that takes a value is that option's bad value, not a flag eating the next
        with self.assertRaises(ValueError) as e:
            cubecast.run(task="mnb", dim=True)
        self.assertTrue(str(e.exception).startswith("--dim true is not a whole number: accepted 1..20"), str(e.exception))
        with self.assertRaises(ValueError) as e:
            cubecast.run(task="mnb", dim=4, buffering="input", vcs=0)
        self.assertIn("--vcs", str(e.exception))
        with self.assertRaises(ValueError) as e:
            cubecast.run(task="mnb", dim=4, power="/nonexistent/tech.txt", buffering="input")
        self.assertIn("--power '/nonexistent/tech.txt' cannot be read", str(e.exception))
        with self.assertRaises(ValueError):
            cubecast.run(task="mnb", json=True)
        with self.assertRaises(ValueError) as e:  # (it printed the help and failed to read it as a report)
            cubecast.run(task="mnb", help=True)
        self.assertIn("cubecast.command('run', '--help')", str(e.exception))

    def test_a_call_that_is_not_one_is_refused_not_read_as_another(self):
        # Each of these once ran something else quietly: a task given without its name was taken for
        # trace=, a trace= path wrote no file, False for an option that takes a value left it at its
        # default, and an empty path was taken for "none given".
        with self.assertRaises(TypeError) as e:
            cubecast.run("snb", dim=3)
        self.assertIn("'snb' was given without a name (task='snb'", str(e.exception))
        with self.assertRaises(TypeError) as e:
            cubecast.run(task="snb", dim=3, trace="t.csv")
        self.assertIn("trace='t.csv' is not True or False (trace_path=", str(e.exception))
        with self.assertRaises(ValueError) as e:
            cubecast.run(task="mnb", dim=False)
        self.assertTrue(str(e.exception).startswith("--dim false is not a whole number"), str(e.exception))
        with self.assertRaises(ValueError) as e:
            cubecast.run(task="mnb", dim=3, trace_path="")
        self.assertIn("--trace '' is empty", str(e.exception))
        mnb = os.path.join(ROOT, "experiments", "mnb-hypercube.yaml")
        with self.assertRaises(ValueError) as e:
            cubecast.experiment(mnb, out="")
        self.assertIn("--out '' is empty", str(e.exception))
        with self.assertRaises(TypeError) as e:
            cubecast.experiment(mnb, set="dim=2")
        self.assertIn("set='dim=2' is not a dict", str(e.exception))
        with self.assertRaises(TypeError):
            cubecast.experiment(mnb, plots="yes")
        # False for a flag is the flag left off, as --self-packets=false is on the command line
        off = dict(task="traffic", dim=3, buffering="input", warmup_cycles=10, window=20, drain=10)
        left_off = cubecast.run(**off)["traffic"]
        self.assertEqual(cubecast.run(self_packets=False, **off)["traffic"], left_off)
        self.assertNotEqual(cubecast.run(self_packets=True, **off)["traffic"], left_off)

    def test_a_stall_is_a_report(self):
        r = cubecast.run(task="mnb", dim=6, packet_flits=4, buffering="input", vcs=1, vc_depth=4, forwarding="router",
                         no_rerun=True)
        self.assertEqual(r["status"], "deadlock")
        self.assertTrue(r["stall_diagnosis"].startswith("deadlock"))

    def test_the_trace_as_rows(self):
        r = cubecast.run(task="mnb", dim=3, packet_flits=2, trace=True)
        rows = r["trace"]
        self.assertEqual(len(rows), r["data_transmissions"] + r["ctrl_transmissions"])
        self.assertEqual(list(rows[0]), ["start", "end", "src", "dst", "origin", "msg", "part", "dest", "kind"])
        self.assertTrue(all(x["end"] - x["start"] == 2 for x in rows))  # 2-flit packets on the ideal router
        try:
            import pandas  # noqa: F401
        except ImportError:
            with self.assertRaises(ImportError):
                cubecast.frame(rows)
        else:
            self.assertEqual(len(cubecast.frame(rows)), len(rows))

    def test_an_experiment_is_its_table(self):
        rows = cubecast.experiment(os.path.join(ROOT, "experiments", "mnb-hypercube.yaml"), set={"dim": "1..5"}, jobs=2)
        self.assertEqual(len(rows), 10)
        for x in rows:
            if x["algorithm"] == "bostt":
                self.assertEqual(x["completion_slots"], math.ceil((2 ** x["dim"] - 1) / x["dim"]))
        with self.assertRaises(ValueError) as e:
            cubecast.experiment(os.path.join(ROOT, "experiments", "mnb-hypercube.yaml"), set={"dimm": "3"})
        self.assertIn("dimm", str(e.exception))

    def test_bad_input_is_found_here_before_a_process_starts(self):
        # The checks run in this process: a bad value raises without a fork (no child to reap), and
        # the whole validation (here a value out of range only validation sees) is the command's.
        before = _children()
        with self.assertRaises(ValueError) as e:
            cubecast.run(task="mnb", dim=4, rerun_seconds=0)
        self.assertIn("--rerun-seconds 0 is out of range", str(e.exception))
        with self.assertRaises(ValueError) as e:
            cubecast.run(task="mnb", dim=40)
        direct = subprocess.run([COMMAND, "run", "--task", "mnb", "--dim", "40"], capture_output=True, text=True)
        self.assertEqual(str(e.exception), direct.stderr.strip().removeprefix("cubecast: "))
        self.assertEqual(_children(), before)

    def test_each_run_is_a_process_of_its_own(self):
        # SystemC elaborates once per process: a second run in this process would fail if the first
        # had elaborated here. Twenty runs, each its own process, each the paper's time.
        for d in range(1, 21):
            r = cubecast.run(task="mnb", dim=(d % 6) + 1)
            self.assertEqual(r["completion_cycles"], math.ceil((2 ** ((d % 6) + 1) - 1) / ((d % 6) + 1)))

    def test_any_command_runs(self):
        code, out, err = cubecast.command("sweep", "--task", "mnb", "--dims", "1..3", "--format", "csv")
        self.assertEqual(code, 0, err)
        direct = subprocess.run([COMMAND, "sweep", "--task", "mnb", "--dims", "1..3", "--format", "csv"],
                                capture_output=True, text=True)
        self.assertEqual(out, direct.stdout)
        code, out, err = cubecast.command("run", "--task", "nothing")
        direct = subprocess.run([COMMAND, "run", "--task", "nothing"], capture_output=True, text=True)
        self.assertEqual((code, out, err), (2, "", direct.stderr))
        self.assertTrue(err.startswith("cubecast: unknown task 'nothing'"), err)

    def test_an_interrupt_stops_the_run(self):
        # A KeyboardInterrupt while a run goes on ends it and its process (none left behind).
        timer = threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT))
        timer.start()
        started = time.monotonic()
        with self.assertRaises(KeyboardInterrupt):
            cubecast.run(task="traffic", dim=10, rate=0.2, window=100000000, buffering="input", no_rerun=True)
        self.assertLess(time.monotonic() - started, 30)
        timer.cancel()
        self.assertEqual(_children(), set())


def _children():
    """This process's child processes (none are left between runs)."""
    me = str(os.getpid())
    found = set()
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                with open(f"/proc/{pid}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[1] == me:
                found.add(pid)
    return found


if __name__ == "__main__":
    unittest.main()
