#!/usr/bin/env python3
"""Helper of Examples/bench.sh (`make bench`) and Examples/scale.sh: measure one tool run, write docs/benchmarks.md.

  bench_report.py measure --record FILE --server-pid PID --server-log LOG [--count NAME,...] --timeout S
                          --tag K=V... -- CMD...
      Runs CMD, appends one JSON line to FILE: wall seconds, CPU seconds (user+sys of CMD and every child
      it waited for, from getrusage(RUSAGE_CHILDREN)), peak OS threads and peak RSS (see `run`), exit status,
      and the TCP connections the servers (those named by --count, else all of the process) accepted
      meanwhile (the demo servers print `stats NAME COUNT` lines on SIGUSR1; before/after diff).
  bench_report.py run [--timeout S] [--stdout F] [--stderr F] -- CMD...
      Runs CMD and prints one JSON object: wall, cpu, threads (the most OS threads CMD and its descendants
      had at once, sampled from /proc every 5 ms), rssKiB (the peak resident set of the largest of them,
      exact: getrusage's ru_maxrss), status. Used by scale.sh.
  bench_report.py report --records FILE --header FILE [--footer FILE] --out docs/benchmarks.md
      Derives every server's accepted suites from its catalogue entry, parses each tool's machine output,
      and writes the tables (median of the runs) with "suites correct: N/M servers" and the first difference.

The ground truth does not come from atscheck: it is OpenSSL's own answer for the server's configuration
(`openssl ciphers -s -tls1_x 'CIPHERS:@SECLEVEL=0'`, kept to the suites the certificate's key can sign,
TLS 1.3 suites from the entry or OpenSSL's default three), the same library and settings the servers run.
"""
import argparse, glob, json, os, re, resource, signal, statistics, subprocess, sys, threading, time
import xml.etree.ElementTree as ET

VERSIONS = ["SSLv2", "SSLv3", "TLSv1.0", "TLSv1.1", "TLSv1.2", "TLSv1.3"]
TLS13_DEFAULT = "TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256:TLS_AES_128_GCM_SHA256"
TLS13_ALL = TLS13_DEFAULT + ":TLS_AES_128_CCM_SHA256:TLS_AES_128_CCM_8_SHA256"


# ---------------------------------------------------------------- measure
def read_stats(pid, log, only=None):
    """Total connections accepted by the servers of one atscheck-demo-servers process (those in `only`, if given)."""
    def ends():
        with open(log) as f:
            return f.read().count("stats-end")
    seen = ends()
    os.kill(pid, signal.SIGUSR1)
    deadline = time.monotonic() + 10
    while ends() == seen:
        if time.monotonic() > deadline:
            raise SystemExit(f"bench: no stats from server process {pid}")
        time.sleep(0.02)
    with open(log) as f:
        block = f.read().split("stats-end")[seen].splitlines()
    return sum(int(line.split()[2]) for line in block
               if line.startswith("stats ") and (only is None or line.split()[1] in only))


class ThreadSampler(threading.Thread):
    """Samples the OS threads of a process and its descendants every `interval` seconds until stopped.

    The figure is the largest sum seen at one instant: the threads a tool holds at once. Threads that live
    shorter than the interval can be missed, so it is a lower bound; a thread-per-connection design holds its
    threads for a whole handshake (milliseconds to seconds) and is seen. Reads /proc/PID/stat of each
    process of the tree every sample, and walks the tree every 20th sample (100 ms) through each process's
    /proc/PID/task/PID/children: the children its main thread started, which is how a shell loop or a tool
    started by `bash -c` runs (children forked by other threads would be missed: no tool here does that).
    Never a scan of all of /proc, nor of every thread, so sampling costs a few per cent of one core.
    """

    def __init__(self, pid, interval=0.005):
        super().__init__(daemon=True)
        self.pid, self.interval, self.peak = pid, interval, 0
        self.done = threading.Event()
        self.stat_files = {}

    @staticmethod
    def tree(pid):
        found, queue = [], [pid]
        while queue:
            current = queue.pop()
            found.append(current)
            try:
                with open(f"/proc/{current}/task/{current}/children") as f:
                    queue += [int(child) for child in f.read().split()]
            except OSError:
                pass  # exited meanwhile
        return found

    def threads(self, pid):
        """num_threads of /proc/PID/stat, read through a descriptor kept open (pread re-renders the file)."""
        try:
            if pid not in self.stat_files:
                self.stat_files[pid] = os.open(f"/proc/{pid}/stat", os.O_RDONLY)
            text = os.pread(self.stat_files[pid], 1024, 0)
            return int(text[text.rindex(b")") + 2:].split()[17])  # field 20: after "pid (comm) " come fields 3…
        except (OSError, ValueError, IndexError):
            return 0  # exited

    def run(self):
        samples, pids = 0, [self.pid]
        while not self.done.is_set():
            if samples % 20 == 0:
                pids = self.tree(self.pid)
            samples += 1
            self.peak = max(self.peak, sum(self.threads(pid) for pid in pids))
            time.sleep(self.interval)  # not Event.wait: its condition variable costs more than the sample
        for descriptor in self.stat_files.values():
            os.close(descriptor)


def run_sampled(argv, stdout, stderr, timeout):
    """Runs argv in a session of its own; returns wall, CPU, peak threads, peak RSS, status, timedOut.

    The session lets a run cut at the timeout be killed whole. With Linux's autogroup scheduling it is also a
    scheduling group of its own, whose CPU share against the machine's other sessions decides how long each
    probe lasts: on a loaded machine a thread-per-probe prober holds more threads at once (300 endpoints at
    --concurrency 256 peaked at 100-450 threads from run to run at a load of 20-60 on 2 cores).

    Peak RSS is ru_maxrss of RUSAGE_CHILDREN: the largest resident set any one process of the run reached
    (exact, kept by the kernel), provided this process has not waited for another child before (each
    `measure` and `run` is a fresh process that starts one child).
    """
    usage0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    with open(stdout, "w") as out, open(stderr, "w") as err:
        process = subprocess.Popen(argv, stdout=out, stderr=err, stdin=subprocess.DEVNULL, start_new_session=True)
        sampler = ThreadSampler(process.pid)
        sampler.start()
        timed_out = False
        try:
            status = process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            os.killpg(process.pid, signal.SIGKILL)
            status = process.wait()
        sampler.done.set()
        sampler.join()
    wall = time.monotonic() - start
    usage1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    user, system = usage1.ru_utime - usage0.ru_utime, usage1.ru_stime - usage0.ru_stime
    return dict(wall=round(wall, 3), user=round(user, 3), sys=round(system, 3), cpu=round(user + system, 3),
                threads=sampler.peak, rssKiB=usage1.ru_maxrss, status=status, timedOut=timed_out)


def measure(args):
    only = set(args.count.split(",")) if args.count else None
    before = read_stats(args.server_pid, args.server_log, only)
    result = run_sampled(args.argv, args.stdout, args.stderr, args.timeout)
    time.sleep(0.2)  # let the servers count connections still closing
    after = read_stats(args.server_pid, args.server_log, only)
    record = dict(tag.split("=", 1) for tag in args.tag)
    record.update(result, connections=after - before)
    if record.get("tool", "").startswith("atscheck"):
        record["handshakes"] = atscheck_handshakes(record.get("output", ""))
    with open(args.record, "a") as f:
        f.write(json.dumps(record) + "\n")
    note = " (timed out)" if result["timedOut"] else ""
    print(f"  {record.get('tool', '?'):11} {result['wall']:7.2f} s wall {result['cpu']:6.2f} s CPU "
          f"{record['connections']:5} connections {result['threads']:4} threads {result['rssKiB'] / 1024:6.1f} MiB, "
          f"exit {result['status']}{note}", file=sys.stderr)
    return result["status"]


def atscheck_handshakes(path):
    """The handshakes atscheck's JSON report counts (`handshakes` summed over the endpoints), or None."""
    try:
        return sum(endpoint.get("handshakes", 0) for endpoint in json.load(open(path)).get("endpoints", []))
    except (OSError, ValueError):
        return None


def run(args):
    result = run_sampled(args.argv, args.stdout, args.stderr, args.timeout)
    print(json.dumps(result))
    return 0


# ---------------------------------------------------------------- ground truth
def openssl_lines(*args):
    return subprocess.run(["openssl", "ciphers", "-V", "-stdname", *args], capture_output=True, text=True,
                          check=True).stdout.splitlines()


def suite_table():
    """IANA name by 16-bit code and by OpenSSL name."""
    by_code, by_openssl = {}, {}
    for line in openssl_lines("-ciphersuites", TLS13_ALL, "ALL:COMPLEMENTOFALL:@SECLEVEL=0"):
        fields = line.split()
        code = int(fields[0].replace(",0x", ""), 16)
        by_code[code], by_openssl[fields[4]] = fields[2], fields[2]
    return by_code, by_openssl


def truth(spec):
    """{version: set of IANA names} the server described by catalogue entry `spec` accepts."""
    order = ["TLSv1.0", "TLSv1.1", "TLSv1.2", "TLSv1.3"]
    low, high = order.index(spec.get("minVersion", "TLSv1.2")), order.index(spec.get("maxVersion", "TLSv1.3"))
    key = spec["certificate"].get("key", "rsa-2048")
    auth = "ECDSA" if key.startswith("ec") else "RSA"
    result = {}
    for version in order[low:high + 1]:
        if version == "TLSv1.3":
            result[version] = set(spec.get("tls13Ciphers", TLS13_DEFAULT).split(":"))
            continue
        flag = {"TLSv1.0": "-tls1", "TLSv1.1": "-tls1_1", "TLSv1.2": "-tls1_2"}[version]
        suites = set()
        for line in openssl_lines("-s", flag, spec.get("ciphers", "DEFAULT") + ":@SECLEVEL=0"):
            fields = line.split()
            kx, au = fields[6][3:], fields[7][3:]
            if fields[5] != "TLSv1.3" and au == auth and "PSK" not in kx and "SRP" not in kx:
                suites.add(fields[2])
        result[version] = suites
    return result


# ---------------------------------------------------------------- tool output parsers
# Each returns {port: {version: set of IANA names}}; a port missing means the tool gave no result for it.
def normal_version(text):
    text = text.strip()
    return {"TLSv1": "TLSv1.0", "TLSV1": "TLSv1.0", "SSLV3": "SSLv3", "SSLV2": "SSLv2"}.get(text, text)


def parse_atscheck(path, names):
    found = {}
    for endpoint in json.load(open(path)).get("endpoints", []):
        suites = {}
        for protocol in endpoint.get("protocols") or []:
            if protocol.get("cipherSuites"):
                suites[protocol["version"]] = {suite["name"] for suite in protocol["cipherSuites"]}
        if endpoint.get("status") == "completed":
            found[int(endpoint["port"])] = suites
    return found


def parse_sslyze(path, names):
    keys = {"ssl_2_0": "SSLv2", "ssl_3_0": "SSLv3", "tls_1_0": "TLSv1.0", "tls_1_1": "TLSv1.1",
            "tls_1_2": "TLSv1.2", "tls_1_3": "TLSv1.3"}
    found = {}
    for server in json.load(open(path)).get("server_scan_results", []):
        scan = server.get("scan_result")
        if not scan:
            continue
        suites = {}
        for key, version in keys.items():
            attempt = scan.get(key + "_cipher_suites") or {}
            accepted = (attempt.get("result") or {}).get("accepted_cipher_suites") or []
            if accepted:
                suites[version] = {entry["cipher_suite"]["name"] for entry in accepted}
        found[int(server["server_location"]["port"])] = suites
    return found


def parse_sslscan(directory, names):
    found = {}
    for path in glob.glob(os.path.join(directory, "*.xml")):
        try:
            root = ET.parse(path).getroot()
        except ET.ParseError:
            continue
        for test in root.iter("ssltest"):
            suites = {}
            for cipher in test.iter("cipher"):
                name = names["code"].get(int(cipher.get("id"), 16), cipher.get("cipher"))
                suites.setdefault(normal_version(cipher.get("sslversion")), set()).add(name)
            found[int(test.get("port"))] = suites
    return found


def parse_testssl(directory, names):
    tags = {"ssl2": "SSLv2", "ssl3": "SSLv3", "tls1": "TLSv1.0", "tls1_1": "TLSv1.1", "tls1_2": "TLSv1.2",
            "tls1_3": "TLSv1.3"}
    found = {}
    for path in glob.glob(os.path.join(directory, "*.json")):
        try:
            entries = json.load(open(path))
        except (ValueError, OSError):
            continue  # killed by the timeout before it closed its JSON array
        for entry in entries:
            match = re.fullmatch(r"cipher-(\w+?)_x([0-9a-f]+)", entry.get("id", ""))
            suites = found.setdefault(int(entry["port"]), {}) if "port" in entry else None
            if match and suites is not None:
                code = int(match.group(2), 16)
                name = names["code"].get(code, entry["finding"].split()[-1])
                suites.setdefault(tags[match.group(1)], set()).add(name)
    return found


def parse_nmap(path, names):
    found = {}
    root = ET.parse(path).getroot()
    for port in root.iter("port"):
        suites = {}
        for script in port.iter("script"):
            if script.get("id") != "ssl-enum-ciphers":
                continue
            for version_table in script.findall("table"):
                version = normal_version(version_table.get("key"))
                for ciphers in version_table.findall("table[@key='ciphers']"):
                    for elem in ciphers.iter("elem"):
                        if elem.get("key") == "name":
                            suites.setdefault(version, set()).add(elem.text.replace("TLS_AKE_WITH_", "TLS_"))
            found[int(port.get("portid"))] = suites
    return found


PARSERS = {"atscheck": (parse_atscheck, "json"), "sslyze": (parse_sslyze, "json"),
           "sslscan": (parse_sslscan, "dir"), "testssl.sh": (parse_testssl, "dir"), "nmap": (parse_nmap, "xml")}


def compare(tool, output, servers, names):
    """(correct, total, first difference) of `tool`'s suite lists against the truth of `servers`."""
    parser, _ = PARSERS[tool]
    try:
        found = parser(output, names)
    except (OSError, ValueError, ET.ParseError) as error:
        return 0, len(servers), f"no readable output ({type(error).__name__})"
    correct, first = 0, None
    for name, port, expected in servers:
        if port not in found:
            first = first or f"{name}: no result"
            continue
        got, difference = found[port], None
        for version in VERSIONS:
            want, have = expected.get(version, set()), got.get(version, set())
            if want != have:
                missing, extra = sorted(want - have), sorted(have - want)
                difference = (f"{name} {version}: " + (f"missing {', '.join(missing)}" if missing else "")
                              + ("; " if missing and extra else "") + (f"extra {', '.join(extra)}" if extra else ""))
                break
        if difference:
            first = first or difference
        else:
            correct += 1
    return correct, len(servers), first


# ---------------------------------------------------------------- report
def server_addresses(log):
    """NAME -> port from an atscheck-demo-servers log."""
    ports = {}
    for line in open(log):
        fields = line.split()
        if len(fields) == 2 and ":" in fields[1]:
            ports[fields[0]] = int(fields[1].rsplit(":", 1)[1])
    return ports


def rows_of(records, names, truths):
    """One row per (scenario, latency, tool, set): medians over the runs, suites checked on the last run."""
    groups = {}
    for record in records:
        key = (record["scenario"], int(record["latency"]), record["set"], record["tool"])
        groups.setdefault(key, []).append(record)
    rows = []
    for (scenario, latency, subset, tool), runs in groups.items():
        last = runs[-1]
        ports = server_addresses(last["serverlog"])
        servers = [(n, ports[n], truths[(last["catalog"], n)]) for n in last["servers"].split(",")]
        parse_tool = "atscheck" if tool.startswith("atscheck") else tool
        correct, total, first = compare(parse_tool, last["output"], servers, names)
        rows.append(dict(scenario=scenario, latency=latency, set=subset, tool=tool, runs=len(runs),
                         servers=len(servers), serverNames=last["servers"].replace(",", ", "), wall=statistics.median(r["wall"] for r in runs),
                         cpu=statistics.median(r["cpu"] for r in runs),
                         connections=statistics.median(r["connections"] for r in runs),
                         threads=max(r.get("threads", 0) for r in runs),
                         rss=max(r.get("rssKiB", 0) for r in runs) / 1024,
                         handshakes=median_or_none([r.get("handshakes") for r in runs]),
                         timedOut=any(r["timedOut"] for r in runs), status=last["status"],
                         correct=correct, total=total, first=first, note=last.get("note", "")))
    return rows


def median_or_none(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


TOOL_ORDER = ["atscheck", "atscheck-nosim", "atscheck-serial", "sslyze", "sslscan", "nmap", "testssl.sh"]


def table(rows, scenario, latency):
    """The scenario's table at one latency; with a serial-floor row (atscheck-serial), a *vs serial* column and
    the floor lines under the table."""
    chosen = [r for r in rows if r["scenario"] == scenario and r["latency"] == latency]
    base = {r["set"]: r["wall"] for r in chosen if r["tool"] == "atscheck"}
    serial = next((r for r in chosen if r["tool"] == "atscheck-serial"), None)
    chosen.sort(key=lambda r: (r["set"] != "all", TOOL_ORDER.index(r["tool"]) if r["tool"] in TOOL_ORDER else 9))
    extra = (" vs serial |", " ---: |") if serial else ("", "")
    lines = ["| tool | servers | runs | wall s | CPU s | connections | peak threads | peak RSS MiB | suites correct "
             "| wall vs atscheck |" + extra[0],
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: |" + extra[1]]
    for r in chosen:
        ratio = f"{r['wall'] / base[r['set']]:.1f}×" if base.get(r["set"]) else "—"
        if r["tool"] == "atscheck" and r["set"] != "all":
            ratio = "(baseline for the subset)"
        timed = " (timed out)" if r["timedOut"] else ""
        servers = f"{r['servers']}: {r['serverNames']}" if r["set"] != "all" else str(r["servers"])
        vs_serial = f" {r['wall'] / serial['wall']:.1f}× |" if serial and serial["wall"] else (" — |" if serial else "")
        lines.append(f"| {r['tool']}{timed} | {servers} | {r['runs']} | {r['wall']:.2f} | {r['cpu']:.2f} | "
                     f"{r['connections']:.0f} | {r['threads']} | {r['rss']:.0f} | {r['correct']}/{r['total']} servers "
                     f"| {ratio} |{vs_serial}")
    differences = [f"- {r['tool']} ({r['servers']} server{'s' if r['servers'] != 1 else ''}): first difference: {r['first']}"
                   for r in chosen if r["first"]]
    scan = next((r for r in chosen if r["tool"] == "atscheck"), None)
    floor = serial_floor_lines(scan, serial, latency)
    cost = simulation_cost_lines(scan, next((r for r in chosen if r["tool"] == "atscheck-nosim"), None))
    return (lines + ([""] + differences if differences else []) + ([""] + floor if floor else [])
            + ([""] + cost if cost else []))


def simulation_cost_lines(scan, nosim):
    """Under the demo and nginx tables: what the Apple client simulation and the two-segment ClientHello check add
    to a full scan (issue 36), from the same scan with `--no-simulation`."""
    if not scan or not nosim:
        return []
    return [f"Simulation cost: the scan with `--no-simulation` takes {nosim['wall']:.2f} s and "
            f"{nosim['connections']:.0f} connections; simulating every Apple era and checking the two-segment "
            f"ClientHello adds {scan['wall'] - nosim['wall']:+.2f} s ({scan['wall'] / nosim['wall']:.2f}×) and "
            f"{scan['connections'] - nosim['connections']:.0f} connections "
            f"({(scan['connections'] - nosim['connections']) / max(1, scan['servers']):.1f} per endpoint)."]


def serial_floor_lines(scan, serial, latency):
    """Under a serial server's table: atscheck's scan against its strictly serial scan (`--per-host 1
    --no-preconnect`) and, behind latency, against the round-trip floor of a serial scan (its handshakes × 2
    round trips: a TCP connect and a TLS flight each, one handshake after another; a scan that opens its next
    connection during a handshake, as atscheck's preconnect does, can go below it). The goals are issue 34's:
    at most 1.5× the serial scan + 0.1 s on loopback, within 1.25× of the round-trip floor behind latency,
    handshakes within 1.1× the serial scan's."""
    if not scan or not serial or not serial["handshakes"]:
        return []
    def verdict(ok):
        return "met" if ok else "**not met**"
    lines = [f"Serial floor: `--per-host 1 --no-preconnect` takes {serial['wall']:.2f} s and "
             f"{serial['handshakes']:.0f} handshakes ({serial['connections']:.0f} connections). atscheck's scan: "
             f"{scan['wall']:.2f} s = {scan['wall'] / serial['wall']:.1f}× the serial scan, "
             f"{scan['handshakes'] or 0:.0f} handshakes = {(scan['handshakes'] or 0) / serial['handshakes']:.2f}× "
             f"(goal ≤ 1.1×: {verdict((scan['handshakes'] or 0) <= 1.1 * serial['handshakes'])})."]
    if latency == 0:
        limit = 1.5 * serial["wall"] + 0.1
        lines[0] += f" Goal on loopback ≤ 1.5 × serial + 0.1 s = {limit:.2f} s: {verdict(scan['wall'] <= limit)}."
    else:
        floor = serial["handshakes"] * 2 * latency / 1000
        lines[0] += (f" Round-trip floor: {serial['handshakes']:.0f} handshakes × 2 round trips × {latency} ms = "
                     f"{floor:.2f} s; atscheck's scan is {scan['wall'] / floor:.2f}× it, the serial scan "
                     f"{serial['wall'] / floor:.2f}× (goal ≤ 1.25×: {verdict(scan['wall'] <= 1.25 * floor)}).")
    return lines


def report(args):
    names_code, names_openssl = suite_table()
    names = {"code": names_code, "openssl": names_openssl}
    records = [json.loads(line) for line in open(args.records) if line.strip()]
    truths = {}
    for catalog in {r["catalog"] for r in records}:
        for spec in json.load(open(catalog))["servers"]:
            truths[(catalog, spec["name"])] = truth(spec)
    rows = rows_of(records, names, truths)
    out = [open(args.header).read().rstrip(), ""]
    titles = {"demo": "The 14 demo servers (Examples/demo-servers.json), one invocation per tool",
              "many": "One server with 24 suites over TLS 1.0–1.2 (Examples/bench-servers.json)",
              "s_server": "`openssl s_server`, which serves one connection at a time (Examples/bench-external.json), "
                          "with the serial floor",
              "s_server-many": "`openssl s_server` with the many-suite server's 24 suites over TLS 1.0–1.2 "
                               "(Examples/bench-external.json), with the serial floor",
              "nginx": "nginx (Examples/bench-external.json)"}
    for scenario in ["demo", "many", "s_server", "s_server-many", "nginx"]:
        for latency in sorted({r["latency"] for r in rows}):
            if any(r["scenario"] == scenario and r["latency"] == latency for r in rows):
                where = "loopback" if latency == 0 else f"behind an emulated {latency} ms round trip"
                out += [f"## {titles[scenario]}, {where}", ""] + table(rows, scenario, latency) + [""]
    if args.footer:
        out += [open(args.footer).read().rstrip(), ""]
    text = "\n".join(out)
    with open(args.out, "w") as f:
        f.write(text)
    print(text)
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    m = commands.add_parser("measure")
    m.add_argument("--record", required=True)
    m.add_argument("--server-pid", type=int, required=True)
    m.add_argument("--server-log", required=True)
    m.add_argument("--count", help="count only these servers' connections (NAME,NAME...)")
    m.add_argument("--timeout", type=float, default=600)
    m.add_argument("--stdout", default=os.devnull)
    m.add_argument("--stderr", default=os.devnull)
    m.add_argument("--tag", action="append", default=[])
    m.add_argument("argv", nargs=argparse.REMAINDER)
    x = commands.add_parser("run")
    x.add_argument("--timeout", type=float, default=None)
    x.add_argument("--stdout", default=os.devnull)
    x.add_argument("--stderr", default=os.devnull)
    x.add_argument("argv", nargs=argparse.REMAINDER)
    r = commands.add_parser("report")
    r.add_argument("--records", required=True)
    r.add_argument("--header", required=True)
    r.add_argument("--footer")
    r.add_argument("--out", required=True)
    args = parser.parse_args()
    if args.command in ("measure", "run"):
        args.argv = args.argv[1:] if args.argv[:1] == ["--"] else args.argv
        return measure(args) if args.command == "measure" else run(args)
    return report(args)


if __name__ == "__main__":
    sys.exit(main())
