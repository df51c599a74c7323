#!/usr/bin/env python3
"""Writes the seed inputs of the FuzzZip and FuzzMachO targets (Fuzz/run.sh calls it): small zips and Mach-O
files built here, so no binary is committed. Usage: make-seeds.py OUTDIR (writes OUTDIR/FuzzZip, OUTDIR/FuzzMachO)."""
import os
import plistlib
import struct
import sys
import zipfile


def name16(text):
    raw = text.encode()
    return raw + b"\0" * (16 - len(raw))


def macho(sections, body_strings):
    """A thin 64-bit arm64 MH_EXECUTE with one __TEXT segment: sections (name, offset-in-body, size) over body."""
    header_size = 32 + 72 + 80 * len(sections)
    start = (header_size + 15) // 16 * 16
    body = b"".join(s.encode() + b"\0" for s in body_strings)
    table = b""
    for name, offset, size in sections:
        table += name16(name) + name16("__TEXT") + struct.pack("<QQIIIIIIII", 0x100000000, size, start + offset,
                                                                4, 0, 0, 2, 0, 0, 0)
    command = struct.pack("<II", 0x19, 72 + 80 * len(sections)) + name16("__TEXT")
    command += struct.pack("<QQQQiiII", 0x100000000, 0, 0, 0, 5, 5, len(sections), 0) + table
    head = struct.pack("<IiiIIIII", 0xFEEDFACF, 0x0100000C, 0, 2, 1, len(command), 0, 0) + command
    return head + b"\0" * (start - len(head)) + body


STRINGS = ["https://api.acme.com/v1", "http://cdn.acme.net:8080/x", "telemetry.acme.io:4443",
           "xmlns=\"http://ns.acme.com/x\"", "https://%@/api", "com.acme.sdk", "user@mail.acme.com"]


def machos():
    size = sum(len(s) + 1 for s in STRINGS)
    yield "one-section", macho([("__cstring", 0, size)], STRINGS)
    yield "overlapping", macho([("__cstring", 0, size), ("__cstring", 4, size - 8), ("__const", 0, size)], STRINGS)
    yield "outside", macho([("__cstring", 1, 1 << 40)], STRINGS)
    yield "repeated", macho([("__cstring", 0, 24 * 50)], ["https://api.acme.com/v1"] * 50)


def write_zip(path, entries, zip64=False):
    """entries: (name, bytes, kind, deflate) with kind file or link."""
    with zipfile.ZipFile(path, "w", allowZip64=True) as archive:
        for name, data, kind, deflate in entries:
            info = zipfile.ZipInfo(name)
            info.create_system = 3
            info.external_attr = (0o120777 if kind == "link" else 0o100644) << 16
            info.compress_type = zipfile.ZIP_DEFLATED if deflate else zipfile.ZIP_STORED
            if zip64:
                with archive.open(info, "w", force_zip64=True) as out:
                    out.write(data)
            else:
                archive.writestr(info, data)


def with_zip64_end(path):
    """Rewrites a zip's end: a ZIP64 end record and locator before the end record, whose fields say "see ZIP64"."""
    with open(path, "rb") as f:
        data = f.read()
    end = data.rindex(b"PK\x05\x06")
    entries, size, offset = struct.unpack("<HII", data[end + 10:end + 20])
    record = struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 45, 45, 0, 0, entries, entries, size, offset)
    locator = struct.pack("<IIQI", 0x07064B50, 0, end, 1)
    tail = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 0xFFFF, 0xFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0)
    with open(path, "wb") as f:
        f.write(data[:end] + record + locator + tail)


def app_entries(executable):
    info = plistlib.dumps({"CFBundleIdentifier": "com.acme.app", "CFBundleExecutable": "App",
                           "MinimumOSVersion": "15.0"}, fmt=plistlib.FMT_BINARY)
    return [("Payload/A.app/Info.plist", info, "file", True), ("Payload/A.app/bin/App", executable, "file", False)]


def zips(folder):
    executable = dict(machos())["one-section"]
    base = app_entries(executable)
    write_zip(os.path.join(folder, "stored-link.ipa"), base + [("Payload/A.app/App", b"bin/App", "link", False)])
    write_zip(os.path.join(folder, "deflated-link.ipa"), base + [("Payload/A.app/App", b"bin/App", "link", True)])
    write_zip(os.path.join(folder, "zip64.ipa"), base + [("Payload/A.app/App", b"bin/App", "link", False)], zip64=True)
    with_zip64_end(os.path.join(folder, "zip64.ipa"))
    write_zip(os.path.join(folder, "loop.ipa"), base + [("Payload/A.app/App", b"bin/App", "link", False),
                                                        ("Payload/A.app/Contents", b"Contents/x", "link", False)])


def main():
    out = sys.argv[1]
    for target in ("FuzzZip", "FuzzMachO"):
        os.makedirs(os.path.join(out, target), exist_ok=True)
    for name, data in machos():
        with open(os.path.join(out, "FuzzMachO", name + ".macho"), "wb") as f:
            f.write(data)
    zips(os.path.join(out, "FuzzZip"))


main()
