"""The Python module (testbenches/python/cubecast) against the command it drives: the same report,
the same one-line errors as ValueError, the trace as rows, an experiment's table."""
import math
import os
import subprocess
import sys
import unittest

import cubecast

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


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
        direct = subprocess.run([cubecast.binary(), *args], capture_output=True, text=True)
        mine = cubecast.run(task="te", dim=3)
        theirs = __import__("json").loads(direct.stdout)
        for k in ("wall_seconds", "elaboration_seconds", "router_cycles_per_second", "packet_hops_per_second"):
            mine.pop(k), theirs.pop(k)
        self.assertEqual(mine, theirs)

    def test_bad_input_is_the_commands_line(self):
        direct = subprocess.run([cubecast.binary(), "run", "--task", "mnb", "--dim", "4", "--vc-dept", "4"],
                                capture_output=True, text=True)
        self.assertEqual(direct.returncode, 2)
        with self.assertRaises(ValueError) as e:
            cubecast.run(task="mnb", dim=4, vc_dept=4)
        self.assertEqual(str(e.exception), direct.stderr.strip().removeprefix("cubecast: "))
        self.assertIn("did you mean --vc-depth", str(e.exception))
        with self.assertRaises(ValueError) as e:
            cubecast.run(task="mnb", dim=4, buffering="input", vcs=0)
        self.assertIn("--vcs", str(e.exception))
        with self.assertRaises(ValueError) as e:
            cubecast.run(task="mnb", dim=4, power="/nonexistent/tech.txt", buffering="input")
        self.assertIn("--power '/nonexistent/tech.txt' cannot be read", str(e.exception))
        with self.assertRaises(ValueError):
            cubecast.run(task="mnb", json=True)

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

    def test_a_missing_command_says_so(self):
        saved = os.environ.get("CUBECAST_BIN")
        os.environ["CUBECAST_BIN"] = "/nonexistent/cubecast"
        try:
            with self.assertRaises(cubecast.CubecastError) as e:
                cubecast.run(task="mnb")
            self.assertIn("/nonexistent/cubecast is missing", str(e.exception))
        finally:
            if saved is None:
                del os.environ["CUBECAST_BIN"]
            else:
                os.environ["CUBECAST_BIN"] = saved


if __name__ == "__main__":
    unittest.main()
