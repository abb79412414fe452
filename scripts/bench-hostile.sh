#!/usr/bin/env bash
# Hostile-client benchmark of the campaign server (issue 29 item 1): starts `weft serve`
# on 127.0.0.1 (a free port, a throw-away SQLite database) and, for DURATION seconds
# (default 30), keeps 10 maximum-size `/api/spec` requests in flight (read in full, asked
# again) and 100 slow readers (each asks for a maximum-size spec and never reads it,
# hanging up after 20 s and asking again), while it times `/api/health` every 200 ms
# and samples the server's RSS. Prints the health latencies (median, p99, max), the
# peak RSS and the specs served; exits 1 when health ever took 100 ms or more or RSS
# reached 300 MB. Only loopback; every loop bounded in count and time.
#
# Usage: scripts/bench-hostile.sh [PATH/TO/weft] [DURATION]
# (default: target/release/weft, else target/debug/weft; build with
#  `cargo build --release -p weft` first).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-}
if [ -z "$bin" ]; then
  if [ -x target/release/weft ]; then bin=target/release/weft; else bin=target/debug/weft; fi
fi
duration=${2:-30}
[ -x "$bin" ] || { echo "no weft binary at $bin (cargo build --release -p weft)" >&2; exit 2; }
dir=$(mktemp -d /tmp/weft-bench.XXXXXX)
port=$((20000 + RANDOM % 20000))
"$bin" serve --listen "127.0.0.1:$port" --db "$dir/campaign.db" 2>"$dir/serve.log" &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$dir"' EXIT
python3 - "$port" "$pid" "$duration" <<'EOF'
import json, socket, statistics, sys, threading, time

port, pid, duration = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
addr = ("127.0.0.1", port)
# The largest spec the server gives: 32 dispatches of up to 65 535 workgroups, shuffled
# (2 097 120 plan entries, the cap).
def request(path, body=None, timeout=30.0):
    s = socket.create_connection(addr, timeout=timeout)
    data = b"" if body is None else body.encode()
    method = "GET" if body is None else "POST"
    s.sendall(f"{method} {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
              f"Content-Length: {len(data)}\r\nConnection: close\r\n\r\n".encode() + data)
    return s

def read_all(s):
    out = []
    while True:
        b = s.recv(1 << 16)
        if not b:
            return b"".join(out)
        out.append(b)

for _ in range(100):
    try:
        s = request("/api/presets")
        resp = read_all(s)
        s.close()
        if b" 200 " in resp.split(b"\r\n", 1)[0]:
            break
    except OSError:
        pass
    time.sleep(0.2)
else:
    print("weft serve did not start"); sys.exit(2)
basic = [p for p in json.loads(resp.split(b"\r\n\r\n", 1)[1]) if p["name"] == "basic"][0]["config"]
basic["maxWorkgroups"] = 65535
basic["shufflePct"] = 100
big = json.dumps({"test": "MP", "stress": {"config": basic}, "seed": 1, "iterations": 32})
deadline = time.time() + duration
stop = threading.Event()
served = {"full": 0, "busy": 0, "cut": 0, "errors": 0}
lock = threading.Lock()

def reader():
    while not stop.is_set() and time.time() < deadline:
        try:
            s = request("/api/spec", big, timeout=60)
            r = read_all(s)
            s.close()
            status = r[9:12]
            with lock:
                served["full" if status == b"200" else "busy"] += 1
        except OSError:
            with lock:
                served["errors"] += 1
            time.sleep(0.1)

def slow():
    # Ask, never read, hang up after 20 s (the server cuts a stalled reader after 15 s)
    # and ask again.
    while not stop.is_set() and time.time() < deadline:
        try:
            s = socket.socket()
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            s.settimeout(30)
            s.connect(addr)
            data = big.encode()
            s.sendall(f"POST /api/spec HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                      f"Content-Length: {len(data)}\r\n\r\n".encode() + data)
            until = min(deadline, time.time() + 20)
            while not stop.is_set() and time.time() < until:
                time.sleep(0.2)
            with lock:
                served["cut"] += 1
            s.close()
        except OSError:
            time.sleep(0.5)

def rss_kb():
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0

threads = [threading.Thread(target=reader, daemon=True) for _ in range(10)]
threads += [threading.Thread(target=slow, daemon=True) for _ in range(100)]
for t in threads:
    t.start()
lat, peak = [], 0
time.sleep(1.0)
while time.time() < deadline:
    t0 = time.perf_counter()
    try:
        s = request("/api/health", timeout=10)
        r = read_all(s)
        s.close()
        ok = r[9:12] == b"200"
    except OSError:
        ok = False
    ms = (time.perf_counter() - t0) * 1000
    lat.append(ms if ok else float("inf"))
    peak = max(peak, rss_kb())
    time.sleep(0.2)
stop.set()
lat.sort()
p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))]
print(f"health: {len(lat)} requests, median {statistics.median(lat):.1f} ms, "
      f"p99 {p99:.1f} ms, max {lat[-1]:.1f} ms")
print(f"server RSS peak: {peak / 1024:.0f} MB")
print(f"specs read in full: {served['full']}, answered busy (503): {served['busy']}, "
      f"slow readers (20 s each): {served['cut']}, connection errors: {served['errors']}")
sys.exit(0 if lat[-1] < 100 and peak < 300 * 1024 else 1)
EOF
