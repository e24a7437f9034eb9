# SPDX-License-Identifier: Apache-2.0
"""Every real URL list of the shared corpus (373 lists with a robots.txt, with
the robots.txt bench/jobs.awk pairs with each): Python's verdicts equal the C
CLI's on every URL, for Googlebot and for a crawler no file names, through
allowed_many, allowed and user_agent= (test_conformance.py compares a sample
of 60 hosts with more agents). The CLI's start-up is most of the time (one
run per list and agent), so its runs go in parallel, one per CPU.
ROBOTSC_CORPUS_SAMPLE=N checks every Nth list only (while developing)."""
import os
import subprocess
from concurrent.futures import ThreadPoolExecutor

import robotsc

# The name given to the CLI's --agent and to Python's agent argument, and a
# User-Agent header whose product token is that name, for user_agent= (the
# CLI's --user-agent reduces it to the same token: the same verdicts apply).
AGENTS = (
    ("Googlebot", "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"),
    ("ExampleBot", "ExampleBot/1.0 (+https://example.com/bot)"),
)


def corpus_lists(corpus):
    """(host, robots.txt, URL list) from urls-index.tsv: the robots.txt of
    the same crawl (2019), else the site's file in robots/; a list with
    neither (its robots.txt was HTML) is left out, as bench/jobs.awk does.
    Also the number of lists in the index."""
    with open(os.path.join(corpus, "urls-index.tsv"), encoding="utf-8") as f:
        rows = [line.rstrip("\n").split("\t") for line in f]
    header = rows[0]
    assert header[:1] == ["file"] and header[4:6] == ["robots_same_crawl_2019", "robots_primary"], header
    jobs = []
    for f in rows[1:]:
        robots = next((r for r in f[4:6] if r not in ("", "-")), None)
        if robots is not None:
            jobs.append((f[1], os.path.join(corpus, robots), os.path.join(corpus, f[0])))
    return jobs, len(rows) - 1


def cli_verdicts(cli, robots, agent, urls_text):
    """`robotsc check --text --agent AGENT ROBOTS`, the list on standard
    input (the CLI skips blank lines and drops a trailing CR)."""
    p = subprocess.run([cli, "check", "--text", "--agent", agent, robots], input=urls_text,
                       capture_output=True, check=False)
    assert p.returncode in (0, 1), (robots, agent, p.stderr)
    out = []
    for line in p.stdout.split(b"\n")[:-1]:
        verdict = line.split(b"\t", 1)[0]
        assert verdict in (b"allow", b"disallow"), line
        out.append(verdict == b"allow")
    return out


def check_list(cli, host, robots, urls_path):
    """Counts (URLs, CLI verdicts, Python checks, disallowed verdicts) and
    the first differences of one list."""
    with open(robots, "rb") as f:
        body = f.read()
    with open(urls_path, "rb") as f:
        text = f.read()
    urls = [u[:-1] if u.endswith(b"\r") else u for u in text.split(b"\n")]
    urls = [u for u in urls if u]
    assert urls, host + ": an empty URL list"
    # text=True and --text: the bytes read as Google reads them, even the
    # few that look binary.
    r = robotsc.Robots.parse(body, text=True)
    verdicts = checks = disallowed = 0
    differ = []
    for agent, header in AGENTS:
        want = cli_verdicts(cli, robots, agent, text)
        assert len(want) == len(urls), "%s %s: the CLI answered %d of %d URLs" % (host, agent, len(want), len(urls))
        got = {
            "allowed_many": r.allowed_many(urls, agent),
            "allowed": [r.allowed(u, agent) for u in urls],
            "allowed_many(user_agent=)": r.allowed_many(urls, user_agent=header),
        }
        for how, values in got.items():
            assert len(values) == len(urls), (host, agent, how)
            for u, g, w in zip(urls, values, want):
                checks += 1
                if g != w:
                    differ.append("%s %s %s: Python's %s %s, the CLI %s" % (host, agent, u, how, g, w))
        verdicts += len(want)
        disallowed += want.count(False)
    return len(urls), verdicts, checks, disallowed, differ


def test_corpus_every_list_equals_cli(corpus, cli):
    for agent, header in AGENTS:
        assert robotsc.agent_token(header) == agent, header
    jobs, n_index = corpus_lists(corpus)
    step = int(os.environ.get("ROBOTSC_CORPUS_SAMPLE", "1"))
    assert step >= 1, "ROBOTSC_CORPUS_SAMPLE: a positive number is needed"
    if step == 1:
        assert len(jobs) > 300, "only %d URL lists with a robots.txt" % len(jobs)
    jobs = jobs[::step]
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        results = list(pool.map(lambda j: check_list(cli, *j), jobs))
    urls = sum(x[0] for x in results)
    verdicts = sum(x[1] for x in results)
    checks = sum(x[2] for x in results)
    disallowed = sum(x[3] for x in results)
    differ = [d for x in results for d in x[4]]
    print("corpus: %d of %d lists, %d URLs, %d CLI verdicts (%d agents; %d disallow), "
          "%d Python checks, %d differ from the CLI"
          % (len(jobs), n_index, urls, verdicts, len(AGENTS), disallowed, checks, len(differ)))
    assert not differ, "%d of %d checks differ from the CLI:\n%s" % (len(differ), checks, "\n".join(differ[:20]))
    # Links found on pages are mostly allowed, but not all: a comparison
    # that never sees a disallow would prove little.
    assert 0 < disallowed < verdicts
    assert verdicts == urls * len(AGENTS)
