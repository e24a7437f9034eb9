# SPDX-License-Identifier: Apache-2.0
"""Fail closed (issue 26, item 2): every truncation, every bit flip and the
header of every other Format_Major of the golden blobs is an exception from
Robots(), Robots.parse() and Store.put(), never a Robots or a record."""
import glob
import os

import pytest

import robotsc
from conftest import ROOT

GOLDEN = sorted(glob.glob(os.path.join(ROOT, "tests", "golden", "*.rbc")))


def damaged(blob):
    for n in range(1, len(blob)):
        yield "trunc%d" % n, blob[:n]
    for bit in range(len(blob) * 8):
        b = bytearray(blob)
        b[bit // 8] ^= 1 << (bit % 8)
        yield "flip%d" % bit, bytes(b)
    for major in range(256):
        if major != blob[4]:
            yield "major%d" % major, blob[:4] + bytes([major]) + blob[5:]


@pytest.mark.parametrize("path", GOLDEN, ids=os.path.basename)
def test_damaged_golden_blobs_raise_everywhere(path, tmp_path):
    blob = open(path, "rb").read()
    assert robotsc.Robots(blob).size == len(blob)  # the golden blob itself loads
    assert robotsc.Robots.parse(blob).size == len(blob)  # a blob given to parse is a blob
    store = robotsc.Store(str(tmp_path / "s.mdb")) if hasattr(robotsc, "Store") else None
    n = 0
    for what, data in damaged(blob):
        with pytest.raises(robotsc.BlobError):
            robotsc.Robots(data)
        with pytest.raises(robotsc.Error) as ei:
            robotsc.Robots.parse(data)
        assert ei.value.status != 0, what
        if store is not None:
            with pytest.raises(robotsc.StoreError):
                store.put("https://a.example", data)
        n += 1
    if store is not None:
        assert len(store) == 0
        store.close()
    assert n > len(blob) * 9


def test_parse_text_keyword_reads_binary_as_text():
    binary = b"\x00\x01\x02\x03" * 100
    with pytest.raises(robotsc.Error, match="binary content"):
        robotsc.Robots.parse(binary)
    assert robotsc.Robots.parse(binary, text=True).allowed("/x", "a") is True
    near_magic = b"\x89RSB" + b"User-agent: *\nDisallow: /\n"  # the magic, one bit off
    with pytest.raises(robotsc.BlobError, match="damaged"):
        robotsc.Robots.parse(near_magic)
    assert robotsc.Robots.parse(near_magic, text=True) is not None
    # A blob is a blob whatever text= says: never compiled as a robots.txt.
    with pytest.raises(robotsc.BlobError):
        robotsc.Robots.parse(b"\x89RSC\x04garbage", text=True)
    # A stray NUL in a text is still a robots.txt (Google reads it).
    assert robotsc.Robots.parse(b"User-agent: *\nDisallow: /a\x00b\n").allowed("/a", "x") is False
