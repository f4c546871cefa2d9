#!/usr/bin/env python3
# httpd.py - the loopback HTTP server of the net tests (a CTest fixture)
# SPDX-License-Identifier: MIT
#
# usage: httpd.py start DIR SRCDIR | stop DIR
# start: serves on 127.0.0.1, on a free port, in the background; writes
# DIR/port and DIR/pid once it listens, DIR/log as it serves. stop: ends
# the server DIR/pid names. Only 127.0.0.1 is ever bound; nothing here
# reaches another host. Each path is one case of tests/net (see the
# table in Handler.do_GET; asked as a proxy for http://torchgate.invalid/,
# it serves the same paths); /flaky/NAME fails with 500 the first time
# NAME is asked for, then serves the good table.
import http.server
import json
import os
import signal
import socketserver
import ssl
import subprocess
import sys
import threading
import time


def tables(srcdir):
    with open(os.path.join(srcdir, "tests/data/apis-mini.json"), "rb") as f:
        mini = f.read()
    head = b'"schema_version": 1,\n'
    assert head in mini

    def versioned(v):
        return mini.replace(head, head + b'  "table_version": "' + v + b'",\n', 1)

    with open(os.path.join(srcdir, "data/advisories.json"), "rb") as f:
        adv = f.read()
    ahead = b'"advisories_version": "'
    assert ahead in adv
    i = adv.index(ahead) + len(ahead)
    j = adv.index(b'"', i)

    def adv_versioned(v):
        return adv[:i] + v + adv[j:]

    return {
        "adv-good": adv_versioned(b"2999.01.01"),
        "adv-newer": adv_versioned(b"2999.01.01.1"),
        "adv-old": adv_versioned(b"2000.01.01"),
        "adv-invalid": adv_versioned(b"2999.01.01").replace(
            b'"package": "torch"', b'"package": "pytorch"', 1),
        "good": versioned(b"2999.01.01"),
        "newer": versioned(b"2999.01.01.1"),
        "old": versioned(b"2000.01.01"),
        "noversion": mini,
        "schema": b'{"schema_version": 1, "table_version": "2999.02.02", '
        b'"entries": []}\n',
    }


def pypi():
    f = {"filename": "torch-2.1.0-cp311-cp311-manylinux1_x86_64.whl", "yanked": False}
    return json.dumps({
        "info": {"name": "torch"},
        "releases": {
            "2.1.0": [f],
            "2.0.0": [{"filename": "torch-2.0.0-cp311-none-any.whl", "yanked": True},
                      {"filename": "torch-2.0.0-cp310-none-any.whl", "yanked": False}],
            "1.13.1": [{"filename": "torch-1.13.1-cp310-none-any.whl"}],
            "2.0.1": [{"filename": "torch-2.0.1-cp311-none-any.whl", "yanked": True}],
            "2.3.0": [],
            "2.10.0": [f],
            "2.2.0rc1": [f],
            "2.11.0.dev20260101": [f],
            "not a version": [f],
        },
    }).encode()


def simple():
    def file(name, yanked=False):
        return {"filename": name, "url": "https://files/" + name,
                "hashes": {}, "yanked": yanked}
    return json.dumps({
        "meta": {"api-version": "1.1"},
        "name": "torch",
        "versions": ["1.13.1", "2.0.0", "2.0.1", "2.1.0", "2.2.0rc1", "2.3.0"],
        "files": [
            file("torch-1.13.1-cp310-cp310-manylinux1_x86_64.whl"),
            file("torch-2.0.0-cp310-cp310-manylinux1_x86_64.whl", "broken wheel"),
            file("torch-2.0.0.tar.gz"),
            file("torch-2.0.1-cp310-cp310-manylinux1_x86_64.whl", True),
            file("torch-2.1.0-cp311-cp311-win_amd64.whl"),
            file("torch-2.1.0-cp310-cp310-win_amd64.whl"),
            file("torch-2.2.0rc1-cp310-cp310-win_amd64.whl"),
            file("torchvision-9.0.0-cp310-cp310-win_amd64.whl"),
        ],
    }).encode()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    seen = set()
    data = {}

    def log_message(self, fmt, *args):
        with open(self.server.log, "a") as f:
            f.write("%s %s\n" % (self.path, fmt % args))

    def send(self, code, body=b"", ctype="application/json", headers=()):
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def conditional(self, body, etag, lm):
        hdr = tuple((k, v) for k, v in (("ETag", etag), ("Last-Modified", lm)) if v)
        if (self.headers.get("If-None-Match") == etag or
                (lm and self.headers.get("If-Modified-Since") == lm)):
            self.send_response(304)
            for k, v in hdr:
                self.send_header(k, v)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.send(200, body, headers=hdr)

    def do_GET(self):
        t = self.data
        p = self.path.split("?")[0]
        if "X-Injected" in self.headers:
            # a header torchgate was made to send by a hostile ETag
            self.send(400, b"header injected\n", "text/plain")
            return
        if p.startswith("http://torchgate.invalid/"):
            # asked as a proxy (an absolute URL): serve the path, and
            # say so, so that a case sees the proxy was used
            p = p[len("http://torchgate.invalid"):]
            with open(self.server.log, "a") as f:
                f.write("proxied %s\n" % self.path)
        if p == "/table/good":
            self.conditional(t["good"], '"good-1"', "Wed, 01 Jan 2999 00:00:00 GMT")
        elif p == "/advisories/good":
            self.conditional(t["adv-good"], '"adv-1"', "Wed, 01 Jan 2999 00:00:00 GMT")
        elif p == "/table/etag-cr":
            # a hostile ETag: a bare CR, then what would be a header
            self.conditional(t["good"], '"a"\rX-Injected: yes', "")
        elif p == "/table/blind304":
            # answers 304 to any validator, whoever it came from
            if ("If-None-Match" in self.headers or
                    "If-Modified-Since" in self.headers):
                self.send_response(304)
                self.send_header("Content-Length", "0")
                self.end_headers()
            else:
                self.send(200, t["newer"])
        elif p.startswith("/slow/") and p[6:] in t:
            # says it started (the log), then answers 2 s later
            with open(self.server.log, "a") as f:
                f.write("slow-start %s\n" % self.path)
            time.sleep(2)
            self.send(200, t[p[6:]])
        elif p.startswith("/advisories/") and "adv-" + p[12:] in t:
            self.send(200, t["adv-" + p[12:]])
        elif p.startswith("/table/") and p[7:] in t:
            self.send(200, t[p[7:]])
        elif p.startswith("/flaky/"):
            if self.path in self.seen:
                self.send(200, t["good"])
            else:
                self.seen.add(self.path)
                self.send(500, b"try again\n", "text/plain")
        elif p == "/always500":
            self.send(503, b"down\n", "text/plain")
        elif p == "/404":
            self.send(404, b"no such table\n", "text/plain")
        elif p == "/big":
            # Content-Length says 33 MiB: refused before the body
            self.send_response(200)
            self.send_header("Content-Length", str(33 * 1024 * 1024))
            self.end_headers()
            self.wfile.write(b" " * 65536)
        elif p == "/big-unsized":
            # no length: the body grows past the cap while it is read
            self.send_response(200)
            self.send_header("Connection", "close")
            self.end_headers()
            chunk = b" " * (1 << 20)
            try:
                for _ in range(40):
                    self.wfile.write(chunk)
            except OSError:
                pass
            self.close_connection = True
        elif p == "/invalid":
            self.send(200, b'{"schema_version": 1, "entries": [\n')
        elif p == "/cut":
            self.send_response(200)
            self.send_header("Content-Length", str(len(t["good"]) + 1000))
            self.end_headers()
            self.wfile.write(t["good"][:200])
            self.wfile.flush()
            self.close_connection = True
        elif p == "/stall":
            time.sleep(4)
            self.send(200, t["good"])
        elif p == "/loop":
            self.send(302, b"", headers=(("Location", "/loop"),))
        elif p == "/redirect-file":
            self.send(302, b"", headers=(("Location", "file:///etc/passwd"),))
        elif p == "/redirect-good":
            self.send(301, b"", headers=(("Location", "/table/good"),))
        elif p == "/pypi/torch/json":
            self.conditional(pypi(), '"pypi-1"', "Wed, 01 Jan 2999 00:00:00 GMT")
        elif p == "/simple/torch/":
            if "application/vnd.pypi.simple.v1+json" not in self.headers.get("Accept", ""):
                self.send(406, b"ask for JSON\n", "text/plain")
            else:
                self.send(200, simple(), "application/vnd.pypi.simple.v1+json")
        elif p == "/index-invalid":
            self.send(200, b'{"info": {}}')
        else:
            self.send(404, b"unknown case\n", "text/plain")


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def tls_server(d):
    """A second server, HTTPS with a self-signed certificate for
    127.0.0.1 made here (DIR/cert.pem): the TLS cases verify against it
    with --cacert, and fail without."""
    cert, key = os.path.join(d, "cert.pem"), os.path.join(d, "key.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048",
                    "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1",
                    "-keyout", key, "-out", cert],
                   check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    srv = Server(("127.0.0.1", 0), Handler)
    srv.log = os.path.join(d, "log")
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(cert, key)
    srv.socket = ctx.wrap_socket(srv.socket, server_side=True)
    return srv


def start(d, srcdir):
    os.makedirs(d, exist_ok=True)
    for f in ("port", "pid", "tls-port"):
        try:
            os.unlink(os.path.join(d, f))
        except FileNotFoundError:
            pass
    Handler.data = tables(srcdir)
    srv = Server(("127.0.0.1", 0), Handler)
    srv.log = os.path.join(d, "log")
    tls = tls_server(d)
    pid = os.fork()
    if pid:
        srv.server_close()
        tls.server_close()
        for _ in range(100):
            if os.path.exists(os.path.join(d, "pid")):
                return 0
            time.sleep(0.05)
        print("httpd.py: the server did not start")
        return 1
    os.setsid()
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    signal.signal(signal.SIGALRM, lambda *a: os._exit(0))
    signal.alarm(1800)  # never outlive a forgotten suite by long
    with open(os.path.join(d, "tls-port"), "w") as f:
        f.write("%d\n" % tls.server_address[1])
    threading.Thread(target=tls.serve_forever, daemon=True).start()
    with open(os.path.join(d, "port.tmp"), "w") as f:
        f.write("%d\n" % srv.server_address[1])
    os.rename(os.path.join(d, "port.tmp"), os.path.join(d, "port"))
    with open(os.path.join(d, "pid.tmp"), "w") as f:
        f.write("%d\n" % os.getpid())
    os.rename(os.path.join(d, "pid.tmp"), os.path.join(d, "pid"))
    srv.serve_forever()
    return 0


def stop(d):
    try:
        with open(os.path.join(d, "pid")) as f:
            pid = int(f.read())
    except FileNotFoundError:
        return 0
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        pass
    os.unlink(os.path.join(d, "pid"))
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "start":
        sys.exit(start(sys.argv[2], sys.argv[3]))
    if len(sys.argv) == 3 and sys.argv[1] == "stop":
        sys.exit(stop(sys.argv[2]))
    print("usage: httpd.py start DIR SRCDIR | stop DIR", file=sys.stderr)
    sys.exit(2)
