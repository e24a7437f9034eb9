# SPDX-License-Identifier: Apache-2.0
"""robotsc.dask on a LocalCluster of 2 workers: a corpus sample compiled into
per-partition packs + manifest; merged; verdicts equal direct compilation.
TSV and WARC inputs are built here."""
import gzip
import json
import os

import pytest

pytest.importorskip("distributed", reason="Debian's python3-distributed is needed")

import robotsc  # noqa: E402
from robotsc import dask as rd  # noqa: E402

URLS = ["/", "/search", "/admin/", "/wp-admin/admin-ajax.php", "/cart?x=1", "/a/b.pdf",
        "/private/page", "/index.html"]
AGENTS = ["Googlebot", "bingbot", "FooBot"]


@pytest.fixture(scope="module")
def client():
    from distributed import Client, LocalCluster
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                           dashboard_address=None)
    c = Client(cluster)
    yield c
    c.close()
    cluster.close()


def test_corpus_sample_on_local_cluster(corpus, client, tmp_path, capsys):
    items = rd.read_directory(os.path.join(corpus, "robots"))
    assert len(items) > 1000
    sample = items[::max(1, len(items) // 300)][:300]
    out = str(tmp_path / "out")
    manifest = rd.compile_collection(sample, out, partitions=6, client=client)
    assert "100%" in capsys.readouterr().out  # the progress bar ran
    with open(os.path.join(out, "manifest.json")) as f:
        assert json.load(f) == manifest
    assert manifest["files"] == len(sample) and manifest["errors"] == 0
    assert len(manifest["partitions"]) == 6
    assert sorted(p["partition"] for p in manifest["partitions"]) == list(range(6))
    assert sum(p["files"] for p in manifest["partitions"]) == len(sample)
    # Every origin's blob is the one compile() makes from its file.
    packs = rd.open_output(out)
    seen = {}
    for pack in packs:
        for origin in pack:
            seen[origin] = pack
    assert sorted(seen) == sorted(o for o, _ in sample)
    for origin, path in sample:
        with open(path, "rb") as f:
            want = robotsc.compile(f.read())
        r = seen[origin].robots(origin)
        assert r.zero_copy and bytes(r.blob) == want, origin
    # Merged: one pack answers like each file compiled directly.
    assert rd.merge(out, str(tmp_path / "all")) == len(sample)
    merged = rd.open_pack(str(tmp_path / "all"))
    assert len(merged) == len(sample)
    for origin, path in sample[::10]:
        with open(path, "rb") as f:
            direct = robotsc.Robots.parse(f.read())
        for agent in AGENTS:
            urls = [origin + u for u in URLS]
            assert [merged.allowed(u, agent) for u in urls] == direct.allowed_many(urls, agent)


def test_tsv_input_on_the_local_scheduler(tmp_path, capsys):
    bodies = {"https://a.example": b"User-agent: *\nDisallow: /a\n",
              "https://b.example": b"User-agent: *\nDisallow: /b\n",
              "https://c.example": b""}
    lines = ["# ORIGIN_OR_URL\tPATH"]
    for i, (o, b) in enumerate(bodies.items()):
        (tmp_path / ("f%d.txt" % i)).write_bytes(b)
        lines.append("%s/some/page\tf%d.txt" % (o.upper().replace("HTTPS", "https"), i))
    lines.append("https://d.example\tmissing.txt")
    (tmp_path / "in.tsv").write_text("\n".join(lines) + "\n")
    items = rd.read_tsv(str(tmp_path / "in.tsv"))
    assert [o for o, _ in items] == list(bodies) + ["https://d.example"]
    manifest = rd.compile_collection(items, str(tmp_path / "out"), partitions=2, client=False)
    assert "100%" in capsys.readouterr().out  # dask.diagnostics.ProgressBar
    assert manifest["files"] == 4 and manifest["errors"] == 1 and len(manifest["partitions"]) == 2
    rd.merge(str(tmp_path / "out"), str(tmp_path / "all"))
    pack = rd.open_pack(str(tmp_path / "all"))
    assert pack.allowed("https://a.example/a", "x") is False
    assert pack.allowed("https://a.example/b", "x") is True
    assert pack.allowed("https://b.example/b", "x") is False
    assert pack.allowed("https://c.example/b", "x") is True
    # An unreadable file is stored as disallow-all, with its error.
    assert pack.allowed("https://d.example/", "x") is False
    assert "missing.txt" in pack.error("https://d.example")
    with pytest.raises(KeyError):
        pack.allowed("https://e.example/", "x")


@pytest.mark.skipif(not hasattr(robotsc, "Store"), reason="built without the LMDB store")
def test_store_output_merged(corpus, client, tmp_path):
    items = rd.read_directory(os.path.join(corpus, "robots"))[::400][:40]
    out = str(tmp_path / "out")
    manifest = rd.compile_collection(items, out, partitions=3, client=client, progress=False,
                                     output="store")
    assert manifest["output"] == "store" and manifest["files"] == len(items)
    assert all(os.path.exists(os.path.join(out, p["store"])) for p in manifest["partitions"])
    assert rd.merge_stores(out, str(tmp_path / "all.mdb")) == len(items)
    with robotsc.Store(str(tmp_path / "all.mdb"), readonly=True) as st:
        assert len(st) == len(items)
        for origin, path in items:
            with open(path, "rb") as f:
                direct = robotsc.Robots.parse(f.read())
            for agent in AGENTS:
                for u in URLS:
                    assert st.allowed(origin + u, agent) == direct.allowed(origin + u, agent)


def warc_record(uri, status, body, kind="response"):
    http = b"HTTP/1.1 %d X\r\nContent-Type: text/plain\r\n\r\n" % status + body
    head = ("WARC/1.0\r\nWARC-Type: %s\r\nWARC-Target-URI: %s\r\nContent-Length: %d\r\n\r\n"
            % (kind, uri, len(http))).encode()
    return head + http + b"\r\n\r\n"


def test_warc_input(client, tmp_path):
    plain = tmp_path / "a.warc"
    plain.write_bytes(warc_record("https://a.example/robots.txt", 200, b"User-agent: *\nDisallow: /x\n")
                      + warc_record("https://a.example/page", 200, b"<html>")
                      + warc_record("https://b.example/robots.txt", 404, b"not found"))
    gz = tmp_path / "b.warc.gz"
    gz.write_bytes(gzip.compress(warc_record("http://C.example:80/robots.txt", 503, b"")) +
                   gzip.compress(warc_record("https://d.example/robots.txt", 200, b"x", "request")))
    items = rd.read_warc([str(plain), str(gz)])
    assert [o for o, _ in items] == ["http://c.example", "https://a.example", "https://b.example"]
    out = str(tmp_path / "out")
    manifest = rd.compile_collection(items, out, client=client, progress=False)
    assert manifest["files"] == 3
    rd.merge(out, str(tmp_path / "all"))
    pack = rd.open_pack(str(tmp_path / "all"))
    assert pack.allowed("https://a.example/x", "bot") is False   # 200: parsed
    assert pack.allowed("https://a.example/y", "bot") is True
    assert pack.allowed("https://b.example/x", "bot") is True    # 404: allow all
    assert pack.allowed("http://c.example/y", "bot") is False    # 503: disallow all


def test_namespace_exports_only_its_api():
    """robotsc.dask does not re-export the modules it uses."""
    import robotsc.dask as rd
    for name in ("os", "json", "gzip", "io", "mmap", "time", "hashlib", "Robots", "Error"):
        assert not hasattr(rd, name), name
    public = {n for n in dir(rd) if not n.startswith("_")}
    assert public == set(rd.__all__) | {"FORMAT"}, public - set(rd.__all__)
