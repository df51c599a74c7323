#!/usr/bin/env python3
"""Helper of Examples/bench.sh (`make bench`): measure one tool run, and write docs/benchmarks.md.

  bench_report.py measure --record FILE --server-pid PID --server-log LOG --timeout S --tag K=V... -- CMD...
      Runs CMD, appends one JSON line to FILE: wall seconds, CPU seconds (user+sys of CMD and every child
      it waited for, from getrusage(RUSAGE_CHILDREN)), exit status, and the TCP connections the servers
      accepted meanwhile (the demo servers print `stats NAME COUNT` lines on SIGUSR1; before/after diff).
  bench_report.py report --records FILE --work DIR --out docs/benchmarks.md [--machine FILE] [--scale FILE]
      Derives every server's accepted suites from its catalogue entry, parses each tool's machine output,
      and writes the tables (median of the runs) with "suites correct: N/M servers" and the first difference.

The ground truth does not come from atscheck: it is OpenSSL's own answer for the server's configuration
(`openssl ciphers -s -tls1_x 'CIPHERS:@SECLEVEL=0'`, kept to the suites the certificate's key can sign,
TLS 1.3 suites from the entry or OpenSSL's default three), the same library and settings the servers run.
"""
import argparse, glob, json, os, re, resource, signal, statistics, subprocess, sys, time
import xml.etree.ElementTree as ET

VERSIONS = ["SSLv2", "SSLv3", "TLSv1.0", "TLSv1.1", "TLSv1.2", "TLSv1.3"]
TLS13_DEFAULT = "TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256:TLS_AES_128_GCM_SHA256"
TLS13_ALL = TLS13_DEFAULT + ":TLS_AES_128_CCM_SHA256:TLS_AES_128_CCM_8_SHA256"


# ---------------------------------------------------------------- measure
def read_stats(pid, log):
    """Total connections accepted by the servers of one atscheck-demo-servers process."""
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
    return sum(int(line.split()[2]) for line in block if line.startswith("stats "))


def measure(args):
    before = read_stats(args.server_pid, args.server_log)
    usage0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    with open(args.stdout, "w") as out, open(args.stderr, "w") as err:
        process = subprocess.Popen(args.argv, stdout=out, stderr=err, stdin=subprocess.DEVNULL,
                                   start_new_session=True)
        timed_out = False
        try:
            status = process.wait(timeout=args.timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            os.killpg(process.pid, signal.SIGKILL)
            status = process.wait()
    wall = time.monotonic() - start
    usage1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    time.sleep(0.2)  # let the servers count connections still closing
    after = read_stats(args.server_pid, args.server_log)
    record = dict(tag.split("=", 1) for tag in args.tag)
    record.update(wall=round(wall, 3), user=round(usage1.ru_utime - usage0.ru_utime, 3),
                  sys=round(usage1.ru_stime - usage0.ru_stime, 3), status=status, timedOut=timed_out,
                  connections=after - before)
    record["cpu"] = round(record["user"] + record["sys"], 3)
    with open(args.record, "a") as f:
        f.write(json.dumps(record) + "\n")
    note = " (timed out)" if timed_out else ""
    print(f"  {record.get('tool', '?'):11} {wall:7.2f} s wall {record['cpu']:6.2f} s CPU "
          f"{record['connections']:5} connections, exit {status}{note}", file=sys.stderr)
    return status


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
                         timedOut=any(r["timedOut"] for r in runs), status=last["status"],
                         correct=correct, total=total, first=first, note=last.get("note", "")))
    return rows


TOOL_ORDER = ["atscheck", "sslyze", "sslscan", "nmap", "testssl.sh"]


def table(rows, scenario, latency):
    chosen = [r for r in rows if r["scenario"] == scenario and r["latency"] == latency]
    base = {r["set"]: r["wall"] for r in chosen if r["tool"] == "atscheck"}
    chosen.sort(key=lambda r: (r["set"] != "all", TOOL_ORDER.index(r["tool"]) if r["tool"] in TOOL_ORDER else 9))
    lines = ["| tool | servers | runs | wall s | CPU s | connections | suites correct | wall vs atscheck |",
             "| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: |"]
    for r in chosen:
        ratio = f"{r['wall'] / base[r['set']]:.1f}×" if base.get(r["set"]) else "—"
        if r["tool"] == "atscheck" and r["set"] != "all":
            ratio = "(baseline for the subset)"
        timed = " (timed out)" if r["timedOut"] else ""
        servers = f"{r['servers']}: {r['serverNames']}" if r["set"] != "all" else str(r["servers"])
        lines.append(f"| {r['tool']}{timed} | {servers} | {r['runs']} | {r['wall']:.2f} | {r['cpu']:.2f} | "
                     f"{r['connections']:.0f} | {r['correct']}/{r['total']} servers | {ratio} |")
    differences = [f"- {r['tool']} ({r['servers']} server{'s' if r['servers'] != 1 else ''}): first difference: {r['first']}"
                   for r in chosen if r["first"]]
    return lines + ([""] + differences if differences else [])


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
    titles = {"demo": "the 14 demo servers (Examples/demo-servers.json), one invocation per tool",
              "many": "one server with 24 suites over TLS 1.0–1.2 (Examples/bench-servers.json)",
              "external": "servers this project did not write: openssl s_server (one connection at a time) "
                          "and nginx (Examples/bench-external.json)"}
    for scenario in ["demo", "many", "external"]:
        for latency in sorted({r["latency"] for r in rows}):
            if any(r["scenario"] == scenario and r["latency"] == latency for r in rows):
                where = "loopback" if latency == 0 else f"behind an emulated {latency} ms round trip"
                out += [f"## {titles[scenario][0].upper()}{titles[scenario][1:]}, {where}", ""] + table(rows, scenario, latency) + [""]
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
    m.add_argument("--timeout", type=float, default=600)
    m.add_argument("--stdout", default=os.devnull)
    m.add_argument("--stderr", default=os.devnull)
    m.add_argument("--tag", action="append", default=[])
    m.add_argument("argv", nargs=argparse.REMAINDER)
    r = commands.add_parser("report")
    r.add_argument("--records", required=True)
    r.add_argument("--header", required=True)
    r.add_argument("--footer")
    r.add_argument("--out", required=True)
    args = parser.parse_args()
    if args.command == "measure":
        args.argv = args.argv[1:] if args.argv[:1] == ["--"] else args.argv
        return measure(args)
    return report(args)


if __name__ == "__main__":
    sys.exit(main())
