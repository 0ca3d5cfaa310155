"""Time ``cudalint server`` as an editor uses it, on a generated 500-line kernel file.

    python bench/server.py [--headers toolkit|embedded] [--lines 500] [--edits 1000] [--burst 10]

With a fresh cache directory (so the CUDA headers are precompiled on the way, as on a
first use): the time from ``didOpen`` to the first diagnostics; once warm, the time from
a keystroke to the diagnostics of that text (the 300 ms pause included); how long an
analysis runs on once an edit cancels it; hover latency on every access of the file; and
the server's resident memory over ``--edits`` edits, typed in bursts of ``--burst``
keystrokes 30 ms apart, each burst followed by the pause and its analysis (sampled every
100 edits). Then a second server, as on the next start of the editor: the time from
``didOpen`` to the first diagnostics with the headers precompiled by the first one (the
text edited, so that no cached result answers). Prints the figures with the load average.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient

# Kernels in the shapes the corpus measures: a strided copy, a shared-memory transpose, a
# branch on the lane, an fp64 constant, a block reduction, an array of structs, a local
# array indexed at run time; each with a host function that launches it.
KERNELS = """\
__global__ void copy_strided_{n}(const float* in, float* out, int n, int stride) {{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {{
        out[i] = in[i * stride] + in[2 * i];
    }}
}}

__global__ void transpose_{n}(const float* in, float* out, int width) {{
    __shared__ float tile[32][32];
    int x = blockIdx.x * 32 + threadIdx.x;
    int y = blockIdx.y * 32 + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * width + x];
    __syncthreads();
    out[x * width + y] = tile[threadIdx.x][threadIdx.y];
}}

__global__ void lanes_{n}(float* data, int n) {{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x % 2 == 0) {{
        data[i] = data[i] * 0.1;
    }} else {{
        data[i] = sqrt(data[i]);
    }}
}}

__global__ void reduce_{n}(const float* in, float* out) {{
    __shared__ float partial[256];
    int t = threadIdx.x;
    partial[t] = in[blockIdx.x * 256 + t];
    __syncthreads();
    for (int s = 128; s > 0; s >>= 1) {{
        if (t < s) {{
            partial[t] += partial[t + s];
        }}
        __syncthreads();
    }}
    if (t == 0) {{
        out[blockIdx.x] = partial[0];
    }}
}}

struct Particle_{n} {{
    float x, y, z, mass;
}};

__global__ void particles_{n}(Particle_{n}* p, float dt, int n) {{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {{
        p[i].x += p[i].mass * dt;
    }}
}}

__global__ void local_{n}(const int* keys, float* out, int n) {{
    float bins[16];
    for (int b = 0; b < 16; ++b) {{
        bins[b] = 0.0f;
    }}
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    bins[keys[i] & 15] += 1.0f;
    out[i] = bins[i & 15];
}}

void launch_{n}(float* a, float* b, int* k, Particle_{n}* p, int n) {{
    copy_strided_{n}<<<(n + 255) / 256, 256>>>(a, b, n, 4);
    transpose_{n}<<<dim3(n / 32, n / 32), dim3(32, 32)>>>(a, b, n);
    lanes_{n}<<<(n + 127) / 128, 128>>>(a, n);
    reduce_{n}<<<n / 256, 256>>>(a, b);
    particles_{n}<<<(n + 255) / 256, 256>>>(p, 0.01f, n);
    local_{n}<<<(n + 255) / 256, 256>>>(k, b, n);
}}

"""
ACCESS = re.compile(r"\w+\[[^\]]")


def kernel_file(lines: int) -> str:
    """At least ``lines`` lines of kernels (whole copies of the set above)."""
    parts = ["#include <cuda_runtime.h>\n\n"]
    count = 0
    while sum(part.count("\n") for part in parts) < lines:
        parts.append(KERNELS.format(n=count))
        count += 1
    return "".join(parts)


def processor_seconds(pid: int) -> float:
    """User and system time the process has used."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


class Bench:
    def __init__(self, client: LanguageClient, uri: str):
        self.client, self.uri = client, uri
        self.published: dict[int | None, float] = {}
        self.arrived = asyncio.Event()
        self.progress: list[tuple[float, dict]] = []
        """When each progress notification came, and what it said (its value, as sent)."""

        @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def record(params: types.PublishDiagnosticsParams) -> None:
            self.published[params.version] = time.perf_counter()
            self.arrived.set()

        @client.feature(types.WINDOW_WORK_DONE_PROGRESS_CREATE)
        def create(params: types.WorkDoneProgressCreateParams) -> None:
            return None

        @client.feature(types.PROGRESS)
        def progress(params: types.ProgressParams) -> None:
            self.progress.append((time.perf_counter(), params.value))

    async def until_progress(self, wanted, after: float, limit: float = 600) -> float:
        """When a progress notification as ``wanted`` came after ``after``."""
        deadline = time.perf_counter() + limit
        while time.perf_counter() < deadline:
            for at, value in self.progress:
                if at > after and wanted(value):
                    return at
            await asyncio.sleep(0.005)
        raise TimeoutError("no such progress")

    async def until_published(self, version: int, limit: float = 600) -> float:
        deadline = time.perf_counter() + limit
        while version not in self.published:
            self.arrived.clear()
            await asyncio.wait_for(self.arrived.wait(), max(deadline - time.perf_counter(), 0.01))
        return self.published[version]

    def change(self, version: int, text: str) -> None:
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                types.VersionedTextDocumentIdentifier(uri=self.uri, version=version),
                [types.TextDocumentContentChangeWholeDocument(text=text)],
            )
        )


async def start_server(work: Path, options: argparse.Namespace, uri: str) -> tuple[LanguageClient, Bench]:
    environment = {**os.environ, "CUDALINT_CACHE_DIR": str(work / "cache")}
    client = LanguageClient("cudalint-bench", "1")
    bench = Bench(client, uri)
    await client.start_io(
        sys.executable, "-m", "cudalint", "server", "--headers", options.headers, cwd=str(work), env=environment
    )
    capabilities = types.ClientCapabilities(window=types.WindowClientCapabilities(work_done_progress=True))
    await client.initialize_async(types.InitializeParams(capabilities=capabilities, root_uri=work.as_uri()))
    client.initialized(types.InitializedParams())
    return client, bench


async def stop_server(client: LanguageClient) -> None:
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()


def open_document(client: LanguageClient, uri: str, text: str) -> None:
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(types.TextDocumentItem(uri=uri, language_id="cuda", version=1, text=text))
    )


async def run(options: argparse.Namespace) -> None:
    work = Path(tempfile.mkdtemp(prefix="cudalint-server-bench-"))
    source = kernel_file(options.lines)
    path = work / "kernels.cu"
    path.write_text(source, encoding="utf-8")
    uri = path.as_uri()
    load_before = os.getloadavg()
    client, bench = await start_server(work, options, uri)
    pid = client._server.pid  # noqa: SLF001 - the server process, for its memory
    print(f"file: {source.count(chr(10))} lines, headers: {options.headers}, load average {load_before[0]:.2f}")

    opened = time.perf_counter()
    open_document(client, uri, source)
    first = await bench.until_published(1) - opened
    print(
        f"didOpen -> first diagnostics (cold, CUDA headers precompiled on the way): {first:.2f} s, "
        f"{processor_seconds(pid):.2f} processor s since the server started"
    )

    version, text, keystrokes = 1, source, []
    used = processor_seconds(pid)
    for _ in range(options.keystrokes):
        version += 1
        text += " "
        typed = time.perf_counter()
        bench.change(version, text)
        keystrokes.append(await bench.until_published(version) - typed)
    print(
        f"keystroke -> diagnostics (warm, 300 ms pause included), {len(keystrokes)} times: "
        f"median {statistics.median(keystrokes):.2f} s, max {max(keystrokes):.2f} s; "
        f"{(processor_seconds(pid) - used) / len(keystrokes):.2f} processor s per analysis"
    )

    stops = []
    for _ in range(options.keystrokes):
        version += 1
        text += " "
        typed = time.perf_counter()
        bench.change(version, text)
        begun = await bench.until_progress(lambda value: value["kind"] == "begin", typed)
        await asyncio.sleep(0.2)  # Well into the analysis.
        version += 1
        text += " "
        edited = time.perf_counter()
        bench.change(version, text)
        cancelled = await bench.until_progress(
            lambda value: value["kind"] == "end" and value.get("message", "").startswith("cancelled"),
            begun,
        )
        stops.append(cancelled - edited)
        await bench.until_published(version)
    print(
        f"an edit 0.2 s into an analysis -> the analysis stopped, {len(stops)} times: "
        f"median {statistics.median(stops) * 1000:.0f} ms, max {max(stops) * 1000:.0f} ms"
    )

    positions = [
        types.Position(number, match.start() + 1)
        for number, line in enumerate(text.splitlines())
        for match in ACCESS.finditer(line)
    ]
    hovers, answered = [], 0
    for position in positions:
        asked = time.perf_counter()
        result = await client.text_document_hover_async(
            types.HoverParams(types.TextDocumentIdentifier(uri=uri), position)
        )
        hovers.append(time.perf_counter() - asked)
        answered += result is not None
    hovers.sort()
    print(
        f"hover, {len(hovers)} positions ({answered} on an access): median {statistics.median(hovers) * 1000:.1f} ms, "
        f"p95 {hovers[int(len(hovers) * 0.95)] * 1000:.1f} ms"
    )

    samples = [(0, rss_mib(pid))]
    started = time.perf_counter()
    for edit in range(1, options.edits + 1):
        version += 1
        text += "/" if edit % 2 else "\n"
        bench.change(version, text)
        if edit % options.burst == 0:
            await bench.until_published(version)
        else:
            await asyncio.sleep(0.03)
        if edit % 100 == 0:
            samples.append((edit, rss_mib(pid)))
    elapsed = time.perf_counter() - started
    print(
        f"RSS over {options.edits} edits in bursts of {options.burst} ({elapsed:.0f} s): "
        + ", ".join(f"{edit}: {mib:.0f} MiB" for edit, mib in samples)
    )
    await stop_server(client)

    client, bench = await start_server(work, options, uri)
    pid = client._server.pid  # noqa: SLF001
    opened = time.perf_counter()
    open_document(client, uri, source + "// edited, not saved\n")
    first = await bench.until_published(1) - opened
    print(
        f"didOpen -> first diagnostics (a new server, CUDA headers precompiled by the last one): {first:.2f} s, "
        f"{processor_seconds(pid):.2f} processor s since the server started"
    )
    await stop_server(client)
    load_after = os.getloadavg()
    print(f"load average at the end: {load_after[0]:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--headers", choices=("toolkit", "embedded"), default="toolkit")
    parser.add_argument("--lines", type=int, default=500)
    parser.add_argument("--keystrokes", type=int, default=10, help="Timed keystrokes once warm.")
    parser.add_argument("--edits", type=int, default=1000)
    parser.add_argument("--burst", type=int, default=10, help="Keystrokes typed before each pause.")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
