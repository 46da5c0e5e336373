"""Measures agg against the transfer floor, dlt and the sqlite3 shell on one loopback server.

Run through `Benchmarks/run`, which builds agg in release mode and prepares dlt. Every
number printed here was measured in this run; medians over --runs repetitions.
"""
import argparse
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def measure(command, env=None, stdout=subprocess.DEVNULL):
    """Runs `command`; returns (seconds, peak resident MB, exit status)."""
    started = time.perf_counter()
    process = subprocess.Popen(command, env=env, stdout=stdout, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - started
    error = process.stderr.read().decode(errors="replace")
    process.stderr.close()
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        sys.exit(f"failed ({code}): {' '.join(command)}\n{error}")
    return elapsed, usage.ru_maxrss / 1024, code


class Server:
    """zoo_server.py with N records, warmed so that every page is built before timing."""

    def __init__(self, records, workdir):
        self.port_file = os.path.join(workdir, f"port-{records}")
        self.process = subprocess.Popen(
            [sys.executable, os.path.join(HERE, "zoo_server.py"), "--records", str(records), "--port-file", self.port_file])
        for _ in range(200):
            if os.path.exists(self.port_file) and open(self.port_file).read():
                break
            time.sleep(0.05)
        self.port = int(open(self.port_file).read())
        self.records = records
        self.url_file = os.path.join(workdir, f"urls-{records}")
        with open(self.url_file, "w") as handle:
            for offset in range(0, records, 1000):
                handle.write(f'url = "http://127.0.0.1:{self.port}/api/v1/dataset/6afa114d-38a2-4e3c-9cfd-29d3bd26b65b'
                             f'?scope=resourceAquire&limit=1000&offset={offset}"\noutput = /dev/null\n')
        self.floor()

    def floor(self):
        return measure(["curl", "-s", "--parallel", "--parallel-max", "4", "-K", self.url_file])[0]

    def stop(self):
        self.process.terminate()
        self.process.wait()


def agg_environment(home, port):
    env = {"PATH": os.environ["PATH"], "HOME": home, "XDG_DATA_HOME": home + "/data",
           "XDG_CONFIG_HOME": home + "/config", "XDG_CACHE_HOME": home + "/cache"}
    if port:
        env["AGG_DATA_TAIPEI"] = f"http://127.0.0.1:{port}"
    return env


def swift_start_floor(workdir):
    """A statically linked Swift program that prints one line: what starting any Swift process costs here."""
    source = os.path.join(workdir, "hello.swift")
    with open(source, "w") as handle:
        handle.write('print("hello")\n')
    program = os.path.join(workdir, "hello")
    subprocess.run(["swiftc", "-O", "-static-stdlib", source, "-o", program], check=True, stdout=subprocess.DEVNULL)
    return program


def median(values):
    return statistics.median(values)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--agg", default=os.path.join(ROOT, ".build", "release", "agg"))
    parser.add_argument("--python-dlt", help="a Python with dlt installed; omit to skip dlt")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--sizes", default="100000,500000")
    arguments = parser.parse_args()
    sizes = [int(size) for size in arguments.sizes.split(",")]
    workdir = tempfile.mkdtemp(prefix="agg-bench-")
    rows = []
    syncs = {}
    try:
        for size in sizes:
            server = Server(size, workdir)
            floors = [server.floor() for _ in range(arguments.runs)]
            times, memories = [], []
            # dlt runs take turns with agg's, so that both see the machine in the same minutes
            # (this VM's speed drifts by a quarter within an hour).
            dlt_runs = max(1, min(arguments.runs, 2)) if arguments.python_dlt and size == sizes[0] else 0
            dlt_times, dlt_memories = [], []
            for run in range(arguments.runs):
                home = os.path.join(workdir, f"agg-{size}-{run}")
                seconds, megabytes, _ = measure([arguments.agg, "sync", "zoo"], env=agg_environment(home, server.port))
                times.append(seconds)
                memories.append(megabytes)
                if run < arguments.runs - 1:
                    shutil.rmtree(home)
                else:
                    syncs[size] = home
                if run < dlt_runs:
                    dlt_dir = os.path.join(workdir, f"dlt-{run}")
                    os.makedirs(dlt_dir)
                    seconds, megabytes, _ = measure(
                        [arguments.python_dlt, os.path.join(HERE, "dlt_zoo.py"), str(server.port), dlt_dir + "/zoo.db", dlt_dir],
                        env={**os.environ, "RUNTIME__LOG_LEVEL": "WARNING"})
                    dlt_times.append(seconds)
                    dlt_memories.append(megabytes)
                    shutil.rmtree(dlt_dir)
            floor, agg = median(floors), median(times)
            rows.append((f"raw transfer, {size:,} records (curl --parallel)", f"{floor:.2f} s", ""))
            rows.append((f"agg sync, {size:,} records", f"{agg:.2f} s, {size / agg:,.0f} rec/s, {median(memories):.0f} MB peak",
                         f"agg/floor {agg / floor:.1f}x"))
            if dlt_times:
                dlt = median(dlt_times)
                rows.append((f"dlt rest_api → SQLite, {size:,} records", f"{dlt:.2f} s, {median(dlt_memories):.0f} MB peak",
                             f"dlt/agg {dlt / agg:.1f}x"))
            server.stop()

        largest = max(sizes)
        home = syncs[largest]
        env = agg_environment(home, None)
        prefix = "大貓熊"
        query = [arguments.agg, "query", "zoo", "--prefix", prefix, "--limit", "20", "--offline", "--format", "ndjson"]
        database = os.path.join(home, "data", "agg", "agg.sqlite")
        with sqlite3.connect(database) as connection:
            (snapshot,) = connection.execute(
                "SELECT snapshot_file FROM collections WHERE source = 'zoo' AND parameters = ''").fetchone()
        snapshot = os.path.join(database + "-snapshots", snapshot)
        folded = prefix.lower()
        sql = ("ATTACH '{s}' AS snapshot; "
               "SELECT key, fields FROM local_records WHERE source = 'zoo' AND search >= '{p}' AND search < '{p}\U0010FFFF' "
               "ORDER BY sequence DESC LIMIT 20; "
               "SELECT r.key, d.fields FROM (SELECT position FROM snapshot.records "
               "WHERE search >= '{p}' AND search < '{p}\U0010FFFF' ORDER BY position LIMIT 20) AS p "
               "JOIN snapshot.records AS r ON r.position = p.position JOIN snapshot.documents AS d ON d.position = p.position "
               "ORDER BY p.position;").format(p=folded, s=snapshot)
        floor_program = swift_start_floor(workdir)
        # The three take turns, many times: each run takes milliseconds, and this VM's speed drifts.
        query_times, sqlite_times, floor_times = [], [], []
        for _ in range(max(30, arguments.runs)):
            query_times.append(measure(query, env=env)[0])
            sqlite_times.append(measure(["sqlite3", database, sql])[0])
            floor_times.append(measure([floor_program])[0])
        agg_query, sqlite_query, swift_floor = median(query_times), median(sqlite_times), median(floor_times)
        rows.append((f"agg query --prefix --limit 20 on {largest:,} records", f"{agg_query * 1000:.1f} ms",
                     f"agg/sqlite3 {agg_query / sqlite_query:.2f}x"))
        rows.append(("sqlite3 shell, the same indexed query", f"{sqlite_query * 1000:.1f} ms", ""))
        rows.append(("Swift hello world, static (any Swift process's start)", f"{swift_floor * 1000:.1f} ms",
                     f"hello/sqlite3 {swift_floor / sqlite_query:.2f}x"))
        version_times = [measure([arguments.agg, "--version"], env=env)[0] for _ in range(max(30, arguments.runs))]
        rows.append(("agg --version (process start-up alone)", f"{median(version_times) * 1000:.1f} ms", ""))
        list_times = [measure([arguments.agg, "sources", "list", "--format", "json"], env=env)[0] for _ in range(max(30, arguments.runs))]
        rows.append(("agg sources list (new process)", f"{median(list_times) * 1000:.1f} ms", ""))
    finally:
        shutil.rmtree(workdir, ignore_errors=True)

    width = max(len(row[0]) for row in rows)
    value_width = max(len(row[1]) for row in rows)
    print(f"{'measurement'.ljust(width)}  {'median'.ljust(value_width)}  ratio")
    for name, value, ratio in rows:
        print(f"{name.ljust(width)}  {value.ljust(value_width)}  {ratio}")


if __name__ == "__main__":
    main()
