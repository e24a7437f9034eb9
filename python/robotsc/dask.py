# SPDX-License-Identifier: Apache-2.0
"""Compile many robots.txt files on a Dask cluster.

Inputs are (origin, source) pairs, source being the body (bytes) or a file
path that the worker reads; read_directory(), read_tsv() and read_warc()
make them. compile_collection() splits them into partitions, compiles each
partition on a worker into a pack (part-NNNNN.bin: blobs back to back,
part-NNNNN.tsv: origin, offset, size, error) or, with output="store", an
LMDB store per partition (robotsc.Store), and writes manifest.json.
open_pack()/Pack map an origin to a zero-copy Robots over an mmap of the
pack; merge() joins the partitions into one pack for workers, merge_stores()
into one store.

    from dask.distributed import Client
    from robotsc import dask as rd
    client = Client("tcp://scheduler.example:8786")
    items = rd.read_directory("/data/robots")
    manifest = rd.compile_collection(items, "/shared/out", partitions=64, client=client)
    rd.merge("/shared/out", "/shared/all")     # one pack: all.bin + all.tsv
    pack = rd.open_pack("/shared/all")
    pack.allowed("https://example.com/x", "mybot")
"""
import gzip as _gzip
import hashlib as _hashlib
import io as _io
import json as _json
import mmap as _mmap
import os as _os
import time as _time

from ._robotsc import Error as _Error, Robots as _Robots, compile as _compile, status_policy as _status_policy

__all__ = ["read_directory", "read_tsv", "read_warc", "compile_collection",
           "compile_partition", "Pack", "open_pack", "open_output", "merge", "merge_stores"]

FORMAT = "robotsc-pack-1"


# ---- inputs ---------------------------------------------------------------

def read_directory(path, suffix=".txt"):
    """(origin, file path) for every file named HOST.txt in a directory (the
    shared corpus layout); the origin is https://HOST. Sorted by name."""
    out = []
    for name in sorted(_os.listdir(path)):
        if name.endswith(suffix):
            out.append(("https://" + name[: -len(suffix)], _os.path.join(path, name)))
    return out


def read_tsv(path):
    """(origin key, file path) from a TSV file of ORIGIN_OR_URL<TAB>PATH lines,
    the format `robotsc store build` reads (relative paths are from the TSV's
    folder). Lines starting with '#' are skipped."""
    from ._robotsc import origin as _origin

    base = _os.path.dirname(_os.path.abspath(path))
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\r\n")
            if not line or line.startswith("#"):
                continue
            where, _, file_path = line.partition("\t")
            out.append((_origin(where).key, _os.path.join(base, file_path)))
    return out


def _warc_records(f):
    """(headers dict, payload bytes) of each record of a WARC stream."""
    while True:
        line = f.readline()
        if not line:
            return
        if not line.strip():
            continue
        if not line.startswith(b"WARC/"):
            raise ValueError("not a WARC record: %r" % line[:40])
        headers = {}
        while True:
            h = f.readline()
            if not h or h in (b"\r\n", b"\n"):
                break
            k, _, v = h.decode("utf-8", "replace").partition(":")
            headers[k.strip().lower()] = v.strip()
        n = int(headers.get("content-length", "0"))
        yield headers, f.read(n)


def _http_response(payload):
    """(status, body) of an HTTP/1.x response block."""
    head, sep, body = payload.partition(b"\r\n\r\n")
    if not sep:
        head, sep, body = payload.partition(b"\n\n")
    status_line = head.split(b"\n", 1)[0].split()
    status = int(status_line[1]) if len(status_line) > 1 and status_line[1].isdigit() else 0
    return status, body


def read_warc(paths):
    """(origin, body) of every robots.txt response in WARC files (plain or
    gzip). The status policy of spec I turns the HTTP status into the text to
    compile (4xx: allow all; 5xx: disallow all). A later record of the same
    origin replaces an earlier one."""
    from ._robotsc import is_robots_url, origin as _origin

    if isinstance(paths, (str, _os.PathLike)):
        paths = [paths]
    found = {}
    for p in paths:
        with open(p, "rb") as raw:
            magic = raw.read(2)
            raw.seek(0)
            f = _gzip.GzipFile(fileobj=raw) if magic == b"\x1f\x8b" else raw
            for headers, payload in _warc_records(_io.BufferedReader(f) if f is not raw else f):
                if headers.get("warc-type") != "response":
                    continue
                uri = headers.get("warc-target-uri", "").strip("<>")
                if not is_robots_url(uri):
                    continue
                status, body = _http_response(payload)
                pol = _status_policy(status, body=body)
                found[_origin(uri).key] = pol.body
    return sorted(found.items())


# ---- compile ----------------------------------------------------------------

def _read_and_compile(source, profile):
    """(blob, body, error text) for one source; a failure compiles to
    disallow-all so that every origin gets an answer."""
    try:
        if isinstance(source, (bytes, bytearray, memoryview)):
            body = bytes(source)
        else:
            with open(source, "rb") as f:
                body = f.read()
        return _compile(body, profile), body, ""
    except (OSError, _Error) as e:
        error = str(e).replace("\t", " ").replace("\n", " ")
        return _compile(b"User-agent: *\nDisallow: /\n", profile), None, error


def compile_partition(index, items, out_dir, profile="google", output="pack"):
    """Compiles one partition into out_dir/part-INDEX.{bin,tsv} (output
    "pack") or the LMDB store out_dir/part-INDEX.mdb (output "store", keys
    canonicalised with origin()); returns its summary (dict). Runs on a
    worker."""
    base = _os.path.join(out_dir, "part-%05d" % index)
    n_ok = n_err = 0
    size = 0
    digest = _hashlib.sha256()
    t0 = _time.perf_counter()
    if output == "store":
        from ._robotsc import Store, origin as _origin
        if _os.path.exists(base + ".mdb"):
            _os.remove(base + ".mdb")
        with Store(base + ".mdb", no_sync=True) as st:
            for origin, source in items:
                blob, body, error = _read_and_compile(source, profile)
                key = _origin(origin).key
                st.put(key, blob, source_url=key + "/robots.txt", source=body,
                       policy="disallow-all" if error else "parse")
                digest.update(blob)
                size += len(blob)
                n_err += bool(error)
                n_ok += not error
        files = {"store": _os.path.basename(base) + ".mdb"}
    else:
        with open(base + ".bin.tmp", "wb") as bin_f, \
                open(base + ".tsv.tmp", "w", encoding="utf-8") as tsv:
            for origin, source in items:
                blob, _, error = _read_and_compile(source, profile)
                bin_f.write(blob)
                digest.update(blob)
                tsv.write("%s\t%d\t%d\t%s\n" % (origin, size, len(blob), error))
                size += len(blob)
                n_err += bool(error)
                n_ok += not error
        _os.replace(base + ".bin.tmp", base + ".bin")
        _os.replace(base + ".tsv.tmp", base + ".tsv")
        files = {"bin": _os.path.basename(base) + ".bin", "index": _os.path.basename(base) + ".tsv"}
    summary = {"partition": index, "files": n_ok + n_err, "errors": n_err, "bytes": size,
               "sha256": digest.hexdigest(), "seconds": round(_time.perf_counter() - t0, 6)}
    summary.update(files)
    return summary


def compile_collection(items, out_dir, partitions=None, client=None, profile="google",
                       progress=True, output="pack"):
    """Compiles (origin, source) pairs across a Dask cluster into per-partition
    packs plus out_dir/manifest.json, and returns the manifest (dict).

    client: a dask.distributed Client (the current one when None and one
    exists; else, or when False, Dask's local threaded scheduler). partitions defaults to
    4 per worker thread. progress shows a progress bar on stderr/stdout.
    A file that cannot be read or compiled is stored as disallow-all and
    counted in the manifest's errors, so the output always covers every
    origin given. output "store" writes one LMDB store per partition
    (robotsc.Store; merge_stores() joins them)."""
    import dask

    if output not in ("pack", "store"):
        raise ValueError("output must be 'pack' or 'store'")

    items = list(items)
    _os.makedirs(out_dir, exist_ok=True)
    if client is False:  # Dask's local threaded scheduler, even with a client around
        client = None
    elif client is None:
        try:
            from distributed import get_client
            client = get_client()
        except (ImportError, ValueError):
            client = None
    if partitions is None:
        threads = sum(client.nthreads().values()) if client is not None else (_os.cpu_count() or 1)
        partitions = max(1, 4 * threads)
    partitions = max(1, min(partitions, len(items) or 1))
    chunks = [items[i::partitions] for i in range(partitions)]
    tasks = [dask.delayed(compile_partition, pure=False)(i, chunk, out_dir, profile, output)
             for i, chunk in enumerate(chunks)]
    t0 = _time.perf_counter()
    if client is not None:
        futures = client.compute(tasks)
        if progress:
            from distributed import progress as _progress
            _progress(futures, notebook=False)
        parts = client.gather(futures)
    elif progress:
        from dask.diagnostics import ProgressBar
        with ProgressBar():
            parts = list(dask.compute(*tasks, scheduler="threads"))
    else:
        parts = list(dask.compute(*tasks, scheduler="threads"))
    manifest = {"format": FORMAT, "output": output, "profile": profile, "partitions": parts,
                "files": sum(p["files"] for p in parts),
                "errors": sum(p["errors"] for p in parts),
                "bytes": sum(p["bytes"] for p in parts),
                "seconds": round(_time.perf_counter() - t0, 6)}
    tmp = _os.path.join(out_dir, "manifest.json.tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        _json.dump(manifest, f, indent=1)
    _os.replace(tmp, _os.path.join(out_dir, "manifest.json"))
    return manifest


# ---- reading the output -------------------------------------------------------

class Pack:
    """origin -> Robots over one pack (.bin + .tsv), mmap'ed read-only; each
    Robots reads the mapping in place and keeps it alive."""

    def __init__(self, bin_path, tsv_path):
        self._index = {}
        with open(tsv_path, encoding="utf-8") as f:
            for line in f:
                origin, off, size, error = line.rstrip("\n").split("\t")
                self._index[origin] = (int(off), int(size), error)
        with open(bin_path, "rb") as f:
            if _os.fstat(f.fileno()).st_size:
                self._map = _mmap.mmap(f.fileno(), 0, access=_mmap.ACCESS_READ)
            else:
                self._map = b""
        self._view = memoryview(self._map)

    def __len__(self):
        return len(self._index)

    def __contains__(self, origin):
        return origin in self._index

    def __iter__(self):
        return iter(self._index)

    def error(self, origin):
        """Why origin's file could not be compiled ('' when it was)."""
        return self._index[origin][2]

    def robots(self, origin):
        """The Robots of an origin key (KeyError when absent)."""
        off, size, _ = self._index[origin]
        return _Robots(self._view[off:off + size])

    def allowed(self, url, agent):
        """Verdict for url, looked up by its origin; a URL whose origin is
        not in the pack raises KeyError."""
        from ._robotsc import origin as _origin
        return self.robots(_origin(url).key).allowed(url, agent)


def open_pack(path):
    """The Pack PATH.bin + PATH.tsv (as merge() writes it)."""
    return Pack(path + ".bin", path + ".tsv")


def open_output(out_dir):
    """One Pack per partition of a compile_collection() output, in order."""
    with open(_os.path.join(out_dir, "manifest.json"), encoding="utf-8") as f:
        manifest = _json.load(f)
    return [Pack(_os.path.join(out_dir, p["bin"]), _os.path.join(out_dir, p["index"]))
            for p in manifest["partitions"]]


def merge(out_dir, dest):
    """Joins the partitions of out_dir into one pack dest.bin + dest.tsv (a
    later partition wins when an origin repeats). Returns the origin count."""
    with open(_os.path.join(out_dir, "manifest.json"), encoding="utf-8") as f:
        manifest = _json.load(f)
    seen = {}
    order = []
    for p in manifest["partitions"]:
        with open(_os.path.join(out_dir, p["index"]), encoding="utf-8") as f:
            for line in f:
                origin, off, size, error = line.rstrip("\n").split("\t")
                if origin not in seen:
                    order.append(origin)
                seen[origin] = (p["bin"], int(off), int(size), error)
    size = 0
    open_bins = {}
    try:
        with open(dest + ".bin.tmp", "wb") as out, open(dest + ".tsv.tmp", "w", encoding="utf-8") as tsv:
            for origin in order:
                name, off, n, error = seen[origin]
                src = open_bins.get(name)
                if src is None:
                    src = open_bins[name] = open(_os.path.join(out_dir, name), "rb")
                src.seek(off)
                out.write(src.read(n))
                tsv.write("%s\t%d\t%d\t%s\n" % (origin, size, n, error))
                size += n
    finally:
        for f in open_bins.values():
            f.close()
    _os.replace(dest + ".bin.tmp", dest + ".bin")
    _os.replace(dest + ".tsv.tmp", dest + ".tsv")
    return len(order)


def merge_stores(out_dir, dest):
    """Copies the records of every partition store of out_dir (output
    "store") into the LMDB store dest (created when missing); returns the
    number of records copied. Workers then open robotsc.Store(dest,
    readonly=True)."""
    from ._robotsc import Store

    with open(_os.path.join(out_dir, "manifest.json"), encoding="utf-8") as f:
        manifest = _json.load(f)
    n = 0
    with Store(dest) as out:
        for p in manifest["partitions"]:
            with Store(_os.path.join(out_dir, p["store"]), readonly=True) as src:
                for key in src.keys():
                    robots, meta = src.get(key)
                    out.put(key, bytes(robots.blob), source_url=meta["source_url"],
                            http_status=meta["http_status"], policy=meta["policy"],
                            fetched_at=meta["fetched_at"], expires=meta["expires"],
                            has_copy=meta["has_copy"])
                    n += 1
    return n
