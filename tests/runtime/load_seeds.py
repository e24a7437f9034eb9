#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes the format 5.0 seeds of tests/fuzz/regress/load (v5_*.rbc): valid
blobs compiled from tests/golden/*.txt by robotsc, the same damaged or
stretched by hand (the Checksum fixed unless the damage is the point), and
a few blobs assembled byte by byte (docs/FORMAT.md as /work/f4spec.md
amends it for 4.0): the header with its varint Total_Size, the Present
mask and section Sizes, Tables with packed widths, tries (inline and Ref
labels, leaves of one rank, n - 1 Offsets), root slots, the wildcard tables
of a program (ROOTS, OUTS, STATES with or without labels, EDGES, the
padding) and chain programs. test_rt_seeds checks that each valid one loads
and each broken one fails for the reason its name says (runtime_load_seeds
in ctest). The v2_*.rbc and v3_*.rbc seeds there are format 2 and 3 blobs
kept as they were written: each must now be rejected with RSC_E_VERSION at
offset 4 (their 8-byte magic "\\x89RSC\\r\\n\\x1a\\n" shares the 4 bytes of
4.0's, and its '\\r' is read as Format_Major).

usage: load_seeds.py ROBOTSC GOLDEN_DIR OUT_DIR
"""
import os
import subprocess
import sys
import tempfile

MAGIC = b"\x89RSC"
MAJOR, MINOR = 5, 0
H_MAJOR, H_MINOR, H_FLAGS, H_CHECK, H_TOTAL = 4, 5, 6, 7, 11
PAD = 3  # zero bytes after the tables of a program with root slots
LABELS = 2  # Shape = N_Internal << 2 | Labels << 1 | Chain
LEAF_ACCEPT, LEAF_END = 2, 3  # Label_Head kinds of a leaf of one rank


def shape(n_internal, labels=0, chain=0):
    return n_internal << 2 | labels << 1 | chain


def states_cols(shp):
    """STATES: Key, First, N, Fail, Out, and Lab_Off, Lab_Len with Labels."""
    return 7 if shp & LABELS else 5


def adler32(b):
    a, s = 1, 0
    for x in b:
        a = (a + x) % 65521
        s = (s + a) % 65521
    return s << 16 | a


def varint(v):
    out = bytearray()
    while v >= 0x80:
        out.append(v & 0x7F | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)


def rd_varint(b, pos):
    v, s = 0, 0
    while True:
        c = b[pos]
        pos += 1
        v |= (c & 0x7F) << s
        s += 7
        if not c & 0x80:
            return v, pos


def checksum(b):
    """The Checksum written (its 4 bytes read as zero)."""
    b = bytearray(b)
    b[H_CHECK:H_CHECK + 4] = b"\0\0\0\0"
    b[H_CHECK:H_CHECK + 4] = adler32(b).to_bytes(4, "little")
    return bytes(b)


def assemble(head7, body, tlen=None):
    """Magic, major, minor, flags (head7), the Checksum, Total_Size (the
    shortest varint that holds the size it is part of; tlen: that many
    bytes, overlong when more than needed), then body."""
    if tlen is None:
        tlen = 1
        while len(varint(H_TOTAL + tlen + len(body))) > tlen:
            tlen += 1
    total = H_TOTAL + tlen + len(body)
    t = bytes((total >> 7 * i) & 0x7F | (0x80 if i + 1 < tlen else 0) for i in range(tlen))
    return checksum(head7 + b"\0" * 4 + t + body)


def body_at(b):
    """The offset of Present: just after Total_Size."""
    return rd_varint(b, H_TOTAL)[1]


def fix(b):
    """Total_Size and Checksum again, after the body changed."""
    return assemble(bytes(b[:H_CHECK]), bytes(b[body_at(b):]))


def sections(b):
    """{id: (content offset, size)}, Present read."""
    out = {}
    present, pos = rd_varint(b, body_at(b))
    for i in range(1, 33):
        if present >> (i - 1) & 1:
            size, pos = rd_varint(b, pos)
            out[i] = (pos, size)
            pos += size
    return out


def blob(flags, secs, major=MAJOR, minor=MINOR):
    """Header + Present + sections [(id, content)] in Id order."""
    secs = sorted(secs)
    present = 0
    for i, _ in secs:
        present |= 1 << (i - 1)
    body = varint(present) + b"".join(varint(len(c)) + c for _, c in secs)
    return assemble(MAGIC + bytes([major, minor, flags]), body)


def resection(b, add=None, drop=()):
    """The blob b with sections added ({id: content}) or dropped."""
    secs = {i: b[p:p + n] for i, (p, n) in sections(b).items() if i not in drop}
    secs.update(add or {})
    return blob(b[H_FLAGS], list(secs.items()), b[H_MAJOR], b[H_MINOR])


def width_of(m):
    return 1 if m < 1 << 8 else 2 if m < 1 << 16 else 3 if m < 1 << 24 else 4


def pack_widths(widths):
    """(width - 1) in 2 bits a column, four columns a byte."""
    out = bytearray((len(widths) + 3) // 4)
    for c, w in enumerate(widths):
        out[c // 4] |= (w - 1) << 2 * (c % 4)
    return bytes(out)


def unpack_widths(b, pos, cols):
    return [(b[pos + c // 4] >> 2 * (c % 4) & 3) + 1 for c in range(cols)]


def table(rows, cols):
    """A Table: Count, then (when Count > 0) the packed widths and the rows."""
    out = bytearray(varint(len(rows)))
    if not rows:
        return bytes(out)
    widths = [width_of(max(r[c] for r in rows)) for c in range(cols)]
    out += pack_widths(widths)
    for r in rows:
        for c in range(cols):
            out += r[c].to_bytes(widths[c], "little")
    return bytes(out)


def compile_golden(robotsc, golden, name, profile):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, name + ".rbc")
        subprocess.run([robotsc, "compile", "--profile", profile,
                        os.path.join(golden, name + ".txt"), "-o", out], check=True)
        with open(out, "rb") as f:
            return f.read()


NO_WILD = b"\x00" + b"\x00" * 4  # Shape 0, four empty Tables


def program(trie, wild=NO_WILD):
    """Trie_Size, the trie, then the wildcard part (Shape, the four Tables
    and, when ROOTS is not empty, the padding: given whole)."""
    return varint(len(trie)) + trie + wild


def wild(shp, roots, outs, states, edges, scols=None):
    """Shape, ROOTS, OUTS, STATES, EDGES (rows of 2, 6, 5 or with Labels 7,
    4 columns; scols: other STATES columns, to break that), the padding
    when ROOTS is not empty."""
    out = (varint(shp) + table(roots, 2) + table(outs, 6) +
           table(states, scols or states_cols(shp)) + table(edges, 4))
    return out + (b"\0" * PAD if roots else b"")


def one_program(rules, prog, flags=0, strings=b"/"):
    """STRINGS, RULES [(line_allow, off, len)], one program, the global set
    (no SETS: set 0 is program 0)."""
    return blob(flags, [(1, strings), (2, table(rules, 3)), (3, table([[len(prog)]], 1) + prog),
                        (5, b"\x01" + table([], 3))])


def chain(nodes):
    """A program of nodes (root included) on one chain: each inner node
    {Label_Head 0, Head (1 child, Width 0), key 'a'} (one child: no
    Offset), the last {Label_Head 0, Head Has_Accept, Accept 1}; rule 1
    "/", global set 0 (no SETS: set 0 is program 0)."""
    trie = b"\x00\x20a" * (nodes - 1) + b"\x00\x01\x01"
    return one_program([[1 << 1, 0, 1]], program(trie))


def program_parts(b, k=0):
    """Program k of a blob: {'data': its offset, 'shape': the Shape's
    offset, 'tabs': [(rows offset, count, widths)] of ROOTS, OUTS, STATES,
    EDGES, 'end': the offset after EDGES}."""
    pos, _ = sections(b)[3]
    count, pos = rd_varint(b, pos)
    w = unpack_widths(b, pos, 1)[0]
    pos += 1
    ends = [int.from_bytes(b[pos + i * w:pos + (i + 1) * w], "little") for i in range(count)]
    data = pos + count * w
    at = data + (ends[k - 1] if k else 0)
    size, q = rd_varint(b, at)
    q += size
    out = {"data": at, "shape": q, "tabs": []}
    shp, q = rd_varint(b, q)
    out["shape_value"] = shp
    for cols in (2, 6, states_cols(shp), 4):
        n, q = rd_varint(b, q)
        widths = unpack_widths(b, q, cols) if n else [1] * cols
        if n:
            q += (cols + 3) // 4
        out["tabs"].append((q, n, widths))
        q += n * sum(widths) if n else 0
    out["end"] = q
    return out


def cell(part, t, r, c):
    """Offset and width of row r, column c of table t (0 ROOTS .. 3 EDGES)."""
    rows, _, widths = part["tabs"][t]
    return rows + r * sum(widths) + sum(widths[:c]), widths[c]


def poke(b, at, w, v):
    b = bytearray(b)
    b[at:at + w] = v.to_bytes(w, "little")
    return checksum(b)


def main():
    robotsc, golden, out = sys.argv[1:4]
    seeds = {}
    basic = compile_golden(robotsc, golden, "basic", "google")
    patterns = compile_golden(robotsc, golden, "patterns", "google")
    seeds["v5_basic"] = basic
    seeds["v5_patterns"] = patterns
    seeds["v5_groups"] = compile_golden(robotsc, golden, "groups", "google")
    seeds["v5_rfc_escapes"] = compile_golden(robotsc, golden, "rfc_escapes", "rfc")
    seeds["v5_empty"] = blob(0, [])  # the header and Present 0: 13 bytes
    if basic[:H_CHECK] != MAGIC + bytes([MAJOR, MINOR, 0]) or len(seeds["v5_empty"]) != 13:
        sys.exit("load_seeds.py: robotsc does not write format 4.0 blobs")

    # The header: any Format_Minor loads; another Format_Major, a reserved
    # flag, a Total_Size varint overlong, the Checksum not fixed.
    for minor, name in ((9, "v5_minor9_ok"), (255, "v5_minor255_ok")):
        b = bytearray(basic)
        b[H_MINOR] = minor
        seeds[name] = checksum(b)
    b = bytearray(basic)
    b[H_FLAGS] |= 0x80  # Flags bit 7: reserved
    seeds["v5_reserved_flag"] = checksum(b)
    for major in (4, 6):
        b = bytearray(basic)
        b[H_MAJOR] = major
        seeds["v5_major%d" % major] = checksum(b)
    start = body_at(basic)
    seeds["v5_total_overlong"] = assemble(basic[:H_CHECK], basic[start:],
                                          tlen=start - H_TOTAL + 1)
    tlen = start - H_TOTAL  # Total_Size one less, in as many bytes: RSC_E_SIZE
    t = bytes(((len(basic) - 1) >> 7 * i) & 0x7F | (0x80 if i + 1 < tlen else 0)
              for i in range(tlen))
    seeds["v5_total_short"] = checksum(basic[:H_TOTAL] + t + basic[start:])

    # Sections: an unknown Id (10) is skipped; a present section of Size 0,
    # a Present varint overlong, a byte after the last section.
    seeds["v5_unknown_section_ok"] = resection(basic, {10: b"abc", 20: b"\xff"})
    b = resection(basic, {10: b"abc"})
    secs = sections(b)
    p10, _ = secs[10]
    seeds["v5_unknown_section_size0"] = fix(b[:p10 - 1] + b"\x00")
    p1, n1 = sections(basic)[1]
    seeds["v5_size0_section"] = fix(basic[:p1 - len(varint(n1))] + b"\x00" +
                                    basic[p1 - len(varint(n1)):])  # STRINGS of Size 0 first
    present, q = rd_varint(basic, start)
    enc = bytearray(varint(present))
    enc[-1] |= 0x80
    seeds["v5_bad_present"] = fix(basic[:start] + bytes(enc) + b"\x00" + basic[q:])
    seeds["v5_sections_short"] = fix(basic + b"\x00")

    # One bit of STRINGS flipped, the Checksum left as it was.
    st, _ = sections(patterns)[1]
    b = bytearray(patterns)
    b[st + 40] ^= 0x10
    seeds["v5_bitflip"] = bytes(b)

    # The DFA of set 0 of the compiled patterns (DFAS, rule 16), damaged one
    # field at a time (Checksum fixed). Its head: K, Start, Rules, Size,
    # Widths; then the records.
    d0, _ = sections(patterns)[9]
    cnt, dpos = rd_varint(patterns, d0)            # the End table's Count
    if patterns[dpos] != 0:
        sys.exit("load_seeds.py: the patterns DFAS End column is not one byte wide")
    dpos += 1 + cnt                                # its widths byte, one byte an End
    k, start_at = rd_varint(patterns, dpos)
    start, p = rd_varint(patterns, start_at)
    _, p = rd_varint(patterns, p)
    size, p = rd_varint(patterns, p)
    widths_at = p
    w, lw = patterns[p] & 15, patterns[p] >> 4
    code = p + 1
    recs = []                                      # (offset, flags, n)
    c = 0
    while c < size:
        fl, n = patterns[code + c], patterns[code + c + 1]
        recs.append((c, fl, n))
        c += 2 + 2 * w + lw if fl & 2 else 2 + w + n * (1 + w)
    if w != 1 or len(recs) != k or not any(not fl & 2 and n >= 2 for _, fl, n in recs):
        sys.exit("load_seeds.py: the patterns DFA is not as expected (one-byte codes, an explicit state of two keys)")
    seeds["v5_dfa_widths"] = poke(patterns, widths_at, 1, 0x13)    # W 3
    # Other of the first record: a byte inside the second record
    seeds["v5_dfa_other_inside"] = poke(patterns, code + 2, 1, recs[1][0] + 1)
    # the first explicit state of two keys or more: its keys out of order
    eo, _, en = next(r for r in recs if not r[1] & 2 and r[2] >= 2)
    k0, k1 = patterns[code + eo + 3], patterns[code + eo + 4]
    seeds["v5_dfa_keys_order"] = poke(poke(patterns, code + eo + 3, 1, k1), code + eo + 4, 1, k0)
    # the last record made an explicit state of 200 keys: past CODE's end
    lo, lfl, ln = recs[-1]
    seeds["v5_dfa_record_past"] = poke(poke(patterns, code + lo, 1, lfl & ~2), code + lo + 1, 1, 200)
    # Start: a byte inside the first record; a record's code (valid)
    seeds["v5_dfa_start_inside"] = poke(patterns, start_at, 1, 1)
    seeds["v5_dfa_start_second_ok"] = poke(patterns, start_at, 1, recs[1][0])
    # F set on a record whose Other is not its own default: the first
    # record (a chain whose D is a verdict or another record)
    seeds["v5_dfa_fallback_bad"] = poke(patterns, code, 1, patterns[code] | 4)

    # The wildcard tables of the compiled patterns, damaged one field at a
    # time (Checksum fixed): each breaks a rule of FORMAT.md rule 10.
    part = program_parts(patterns)
    nslots = part["tabs"][0][1]
    nstates = part["tabs"][2][1]
    nouts = part["tabs"][1][1]
    at, w = cell(part, 0, 1, 0)
    seeds["v5_roots_level16"] = poke(patterns, at, w, 16)
    at, w = cell(part, 1, 1, 1)
    seeds["v5_outs_next_later"] = poke(patterns, at, w, 2)
    at, w = cell(part, 2, 1, 3)
    seeds["v5_states_fail_range"] = poke(patterns, at, w, nstates)
    at, w = cell(part, 2, 1, 4)
    seeds["v5_states_out_range"] = poke(patterns, at, w, nouts + 1)
    at, w = cell(part, 3, 0, 0)
    seeds["v5_edges_parent_range"] = poke(patterns, at, w, nslots)
    seeds["v5_pad_nonzero"] = poke(patterns, part["end"] + 1, 1, 1)
    # The packed widths of STATES (7 columns with labels: 2 bytes) with a
    # bit past the last column set.
    rows, _, widths = part["tabs"][2]
    wbytes = (states_cols(part["shape_value"]) + 3) // 4
    seeds["v5_width_bits"] = poke(patterns, rows - 1, 1, patterns[rows - 1] | 0x80)
    # Failure links a compiler never writes (state 1 failing to itself):
    # valid, safe to match (the matcher bounds its failure steps).
    at, w = cell(part, 2, 1, 3)
    seeds["v5_fail_loop_ok"] = poke(patterns, at, w, 1)
    # The compiled patterns have labels (Labels 1: "*.php" and the like are
    # straight runs); a label moved to end exactly at STRINGS' end loads (it
    # reads other bytes: safe but wrong), one byte further is rejected.
    if not part["shape_value"] & LABELS or wbytes != 2:
        sys.exit("load_seeds.py: the compiled patterns have no labels (Shape %d)"
                 % part["shape_value"])
    nstr = sections(patterns)[1][1]
    for r in range(nstates):
        at, w = cell(part, 2, r, 6)
        lab_len = int.from_bytes(patterns[at:at + w], "little")
        if lab_len:
            break
    else:
        sys.exit("load_seeds.py: the compiled patterns have no label")
    at, w = cell(part, 2, r, 5)
    if nstr - lab_len + 1 >= 1 << 8 * w:
        sys.exit("load_seeds.py: Lab_Off too narrow for the seeds")
    seeds["v5_label_moved_ok"] = poke(patterns, at, w, nstr - lab_len)
    seeds["v5_label_moved_past_strings"] = poke(patterns, at, w, nstr - lab_len + 1)

    # A rule of priority 0 (the empty pattern) in a program: the root's
    # Accept 1; it loads and decides nothing. Rule 2 "/x" under it, a leaf
    # of one Accept (Label_Head 1 << 2 | 2: the label "x" is rule 2's text
    # from depth 1, Rep 2).
    seeds["v5_priority0_rule_ok"] = one_program(
        [[1 << 1, 0, 0], [2 << 1, 0, 2]], program(b"\x00\x21\x01/" + b"\x06\x02"),
        strings=b"/x")

    seeds["v5_chain1024_ok"] = chain(1024)
    seeds["v5_chain1025"] = chain(1025)

    # Tries by hand, rules 1 "/ab", 2 "/ac$" (both disallow): STRINGS
    # "/ab/ac$". The root has one child '/' (Head 0x20: one child, no
    # Offset) whose label "a" is inline, Head 0x40 (two children, Width 0),
    # keys "bc", one Offset (child 1's). Leaves of one rank: Label_Head
    # Label_Len << 2 | 2 (Accept) or 3 (End), then the Rep, whose match text
    # holds the label from depth d, and nothing else.
    rules = [[2 << 1, 0, 3], [3 << 1, 3, 4]]

    def leaves(node_b, node_c, offs=b"\x02"):
        """root -> '/' (label "a"; children 'b' and 'c'): 'b' node_b (its
        span 2 bytes), 'c' node_c; the '/' node's Offset given."""
        trie = b"\x00\x20/" + b"\x04a\x40bc" + offs + node_b + node_c
        return one_program(rules, program(trie), strings=b"/ab/ac$")
    # "/ab" Accept 1 (kind 2, Rep 1, d 3 of 3); "/ac" End 2 (kind 3, Rep 2,
    # d 3 of 4).
    seeds["v5_leaves_ok"] = leaves(b"\x02\x01", b"\x03\x02")
    seeds["v5_leaf_rep_range"] = leaves(b"\x02\x03", b"\x03\x02")  # Rep 3 of 2
    seeds["v5_leaf_rep_past_text"] = leaves(b"\x02\x01", b"\x0b\x02")  # 2 bytes from 3 of 4
    seeds["v5_leaf_not_end"] = leaves(b"\x02\x01", b"\x03\x02\x00")  # a byte after the Rep
    seeds["v5_offset0"] = leaves(b"\x02\x01", b"\x03\x02", offs=b"\x00")  # child 1 at child 0
    seeds["v5_width_one_child"] = one_program(  # Head 0x28: one child, Width 1
        rules, program(b"\x00\x28/" + b"\x00" + b"\x02\x01"), strings=b"/ab/ac$")
    seeds["v5_root_leaf"] = one_program(rules, program(b"\x02\x01"), strings=b"/ab/ac$")

    # Root slots and wildcard tables by hand: rule 1 "*ab" at the root.
    star_ab = wild(0, [[0, 1]], [[2, 0, 1, 0, 1, 0]],
                   [[0, 1, 1, 0, 0], [ord("a"), 2, 1, 0, 0], [ord("b"), 0, 0, 0, 1]],
                   [[0, 1, 0, 1]])
    seeds["v5_root_slot_ok"] = one_program([[1 << 1, 0, 3]], program(b"\x00\x04\x00", star_ab),
                                           strings=b"*ab")
    seeds["v5_slot_range"] = one_program([[1 << 1, 0, 3]], program(b"\x00\x04\x01", star_ab),
                                         strings=b"*ab")
    seeds["v5_pad_missing"] = one_program([[1 << 1, 0, 3]],
                                          program(b"\x00\x04\x00", star_ab[:-PAD]),
                                          strings=b"*ab")
    seeds["v5_internal513"] = one_program(
        [[1 << 1, 0, 3]], program(b"\x00\x04\x00", varint(shape(513)) + star_ab[1:]),
        strings=b"*ab")
    # The same with Labels (FORMAT.md, Labels): "a" is left out (one child,
    # Fail the root, no output, no Fail link to it); state 1 is 'a' + the
    # label "b", STRINGS[2 .. 3) of "*ab". A label past STRINGS by one; up
    # to its end (the label "b" as the last byte of a longer STRINGS).
    def star_ab_lab(lab_off, lab_len, shp=shape(0, 1), scols=None):
        return wild(shp, [[0, 1]], [[2, 0, 1, 0, 1, 0]],
                    [[0, 1, 1, 0, 0, 0, 0], [ord("a"), 0, 0, 0, 1, lab_off, lab_len]],
                    [[0, 1, 0, 1]], scols)
    seeds["v5_labels_ok"] = one_program([[1 << 1, 0, 3]],
                                        program(b"\x00\x04\x00", star_ab_lab(2, 1)),
                                        strings=b"*ab")
    seeds["v5_label_strings_end_ok"] = one_program(
        [[1 << 1, 0, 3]], program(b"\x00\x04\x00", star_ab_lab(4, 1)), strings=b"*axab")
    seeds["v5_label_past_strings"] = one_program([[1 << 1, 0, 3]],
                                                 program(b"\x00\x04\x00", star_ab_lab(2, 2)),
                                                 strings=b"*ab")
    seeds["v5_labels_5_columns"] = one_program(
        [[1 << 1, 0, 3]], program(b"\x00\x04\x00", star_ab_lab(2, 1, scols=5)), strings=b"*ab")
    # A chain program (Shape 1 << 2 | 1): rule 1 "*ab*c", segment "ab" then
    # "c", each a line of states with its KMP failure links.
    chain_w = [[[0, 1]], [[2, 0, 1, 0, 1, 0], [1, 0, 1, 1, 1, 0]],
               [[0, 1, 1, 0, 0], [ord("a"), 2, 1, 0, 0], [ord("b"), 0, 0, 0, 1],
                [0, 4, 1, 3, 0], [ord("c"), 0, 0, 3, 2]],
               [[0, 0, 1, 1], [1, 1, 0, 1]]]
    seeds["v5_chain_program_ok"] = one_program(
        [[1 << 1, 0, 5]], program(b"\x00\x04\x00", wild(shape(1, 0, 1), *chain_w)),
        strings=b"*ab*c")
    bad = [chain_w[0], [[2, 0, 1, 0, 1, 0], [2, 0, 1, 1, 1, 0]]] + chain_w[2:]
    seeds["v5_chain_states_sum"] = one_program(
        [[1 << 1, 0, 5]], program(b"\x00\x04\x00", wild(shape(1, 0, 1), *bad)),
        strings=b"*ab*c")
    # A chain has Labels 0: the same chain with Labels (7 columns, no label).
    lab = [chain_w[0], chain_w[1], [r + [0, 0] for r in chain_w[2]], chain_w[3]]
    seeds["v5_chain_labels"] = one_program(
        [[1 << 1, 0, 5]], program(b"\x00\x04\x00", wild(shape(1, 1, 1), *lab)),
        strings=b"*ab*c")

    # A label by Rep past its rule's match text (rule 1 "/ab": 2 bytes
    # from depth 1 fit, 3 do not); SETS left out with two programs named
    # by AGENTS; an empty Table followed by a widths byte.
    def rep_label(n):
        trie = b"\x00\x20/" + varint(n << 2 | 1) + b"\x01\x01\x01"
        return one_program([[1 << 1, 0, 3]], program(trie), strings=b"/ab")
    seeds["v5_label_rep_ok"] = rep_label(2)
    seeds["v5_label_rep_past_text"] = rep_label(3)
    p0 = program(b"\x00\x20/" + b"\x06\x01")  # "/a": a leaf of one Accept, rank 1
    p1 = program(b"\x00\x20/" + b"\x04b\x01\x02")  # "/b": inline label, Head, Accept 2
    seeds["v5_sets_absent_ok"] = blob(0, [
        (1, b"/a/bbot"),
        (2, table([[2 << 1, 0, 2], [1 << 1, 2, 2]], 3)),  # equal lengths: later line first
        (3, table([[len(p0)], [len(p0) + len(p1)]], 1) + p0 + p1),
        (5, b"\x01" + table([[4, 3, 1]], 3)),  # "bot" -> set 1 (program 1)
    ])
    seeds["v5_empty_table_widths"] = blob(0, [(1, b"/a"), (7, b"\x00\x00")])

    os.makedirs(out, exist_ok=True)
    for name, data in sorted(seeds.items()):
        with open(os.path.join(out, name + ".rbc"), "wb") as f:
            f.write(data)
        print("%s.rbc: %d bytes" % (name, len(data)))


if __name__ == "__main__":
    main()
