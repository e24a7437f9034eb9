// SPDX-License-Identifier: Apache-2.0

package robotsc_test

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	robotsc "github.com/robotsc/robotsc/go"
)

// A URL list of the corpus and a robots.txt to check it against.
type corpusJob struct {
	list   string // the list's host (urls-index.tsv's host column)
	urls   string // urls/<host>.txt
	robots string // robots/... or robots-variants/...
}

// corpusJobs reads urls-index.tsv: every URL list with its robots.txt of
// the same crawl (2019), else the site's file in robots/ (bench/jobs.awk's
// pairing); with both, also the site's file when it differs. A list with
// neither (in.bongacams.com: its robots.txt was HTML) is counted apart.
func corpusJobs(t testing.TB, corpus string, both bool) (jobs []corpusJob, lists, noRobots int) {
	idx, err := os.ReadFile(filepath.Join(corpus, "urls-index.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(strings.TrimRight(string(idx), "\n"), "\n") {
		f := strings.Split(line, "\t")
		if i == 0 {
			if len(f) < 6 || f[0] != "file" || f[4] != "robots_same_crawl_2019" || f[5] != "robots_primary" {
				t.Fatalf("urls-index.tsv: unexpected header %q", line)
			}
			continue
		}
		if len(f) < 6 {
			t.Fatalf("urls-index.tsv: %q", line)
		}
		lists++
		seen := false
		for _, r := range f[4:6] {
			if r == "" || r == "-" || (seen && (!both || r == f[4])) {
				continue
			}
			seen = true
			jobs = append(jobs, corpusJob{f[1], filepath.Join(corpus, f[0]), filepath.Join(corpus, r)})
		}
		if !seen {
			noRobots++
		}
	}
	return jobs, lists, noRobots
}

// cliVerdicts runs `robotsc check ARGS SOURCE` with input (a URL list) on
// standard input. exit is the CLI's status; on 0 or 1 the verdicts are
// returned, one per line of output.
func cliVerdicts(cli string, args []string, source string, input []byte) (verdicts []bool, exit int, err error) {
	cmd := exec.Command(cli, append(append([]string{"check"}, args...), source)...)
	cmd.Stdin = bytes.NewReader(input)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			return nil, -1, err
		}
		if ee.ExitCode() != 1 {
			return nil, ee.ExitCode(), fmt.Errorf("%s check %s: %v: %s", cli, source, err, stderr.String())
		}
		exit = 1
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		switch v, _, _ := strings.Cut(sc.Text(), "\t"); v {
		case "allow":
			verdicts = append(verdicts, true)
		case "disallow":
			verdicts = append(verdicts, false)
		default:
			return nil, exit, fmt.Errorf("%s check %s: output line %q", cli, source, sc.Text())
		}
	}
	return verdicts, exit, sc.Err()
}

const googlebotUA = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"

// A crawler a list is checked for: name is given to the CLI's --agent and
// to AllowedMany and Allowed; header, a User-Agent whose product token is
// name, to AllowedUserAgent (the CLI's --user-agent reduces it to that
// token, so the same verdicts apply, without one more run of the CLI). ua:
// name is itself a header, given to --user-agent and AllowedUserAgent.
type corpusAgent struct {
	name, header string
	ua           bool
}

// Google's crawler, and one that no file names (the '*' group, or none).
var corpusAgents = []corpusAgent{
	{"Googlebot", googlebotUA, false},
	{"ExampleBot", "ExampleBot/1.0 (+https://example.com/bot)", false},
}

// ROBOTSC_CORPUS_FULL=1 adds a crawler that many files name, and Google's
// header through the CLI's own --user-agent (twice the CLI runs).
var corpusAgentsFull = []corpusAgent{
	{"bingbot", "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", false},
	{googlebotUA, "", true},
}

// Counts of one job, added up by the test.
type corpusCount struct {
	urls, verdicts, checks, disallowed, differ, text int
}

// Every URL list of the corpus (../shared/corpus/urls, 373 with a
// robots.txt) against its robots.txt: Go's verdicts equal the CLI's on
// every URL for every agent of corpusAgents, through AllowedMany, Allowed
// and AllowedUserAgent. The CLI's start-up is most of the time (one run
// per list and agent), so the default is the two agents.
// ROBOTSC_CORPUS_FULL=1 adds corpusAgentsFull and each list's other
// robots.txt (the site's newer file, for 72 lists);
// ROBOTSC_CORPUS_SAMPLE=N checks every Nth list only (while developing).
func TestCorpusEveryListEqualsCLI(t *testing.T) {
	corpus := corpusDir(t)
	cli := cliPath(t)
	full := os.Getenv("ROBOTSC_CORPUS_FULL") == "1"
	agents := corpusAgents
	if full {
		agents = append(append([]corpusAgent{}, corpusAgents...), corpusAgentsFull...)
	}
	for _, a := range agents {
		if tok, ok := robotsc.AgentToken(a.header); a.header != "" && (!ok || tok != a.name) {
			t.Fatalf("the product token of %q is %q, not %q", a.header, tok, a.name)
		}
	}
	jobs, lists, noRobots := corpusJobs(t, corpus, full)
	step := 1
	if s := os.Getenv("ROBOTSC_CORPUS_SAMPLE"); s != "" {
		if _, err := fmt.Sscan(s, &step); err != nil || step < 1 {
			t.Fatalf("ROBOTSC_CORPUS_SAMPLE=%q: a positive number is needed", s)
		}
	}
	if step == 1 && lists-noRobots < 300 {
		t.Fatalf("only %d URL lists with a robots.txt in %s", lists-noRobots, corpus)
	}
	// The CLI's start-up dominates: its runs go in parallel, one per CPU.
	work := make(chan corpusJob)
	counts := make(chan corpusCount)
	var wg sync.WaitGroup
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range work {
				counts <- checkCorpusJob(t, cli, j, agents)
			}
		}()
	}
	go func() {
		for i := 0; i < len(jobs); i += step {
			work <- jobs[i]
		}
		close(work)
		wg.Wait()
		close(counts)
	}()
	var sum corpusCount
	n := 0
	checkedLists := map[string]bool{}
	for c := range counts {
		n++
		sum.urls += c.urls
		sum.verdicts += c.verdicts
		sum.checks += c.checks
		sum.disallowed += c.disallowed
		sum.differ += c.differ
		sum.text += c.text
	}
	for i := 0; i < len(jobs); i += step {
		checkedLists[jobs[i].list] = true
	}
	// Both files of a list were asked for: some lists have two.
	if full && step == 1 && n <= lists-noRobots {
		t.Errorf("ROBOTSC_CORPUS_FULL: %d list/robots.txt pairs for %d lists", n, lists-noRobots)
	}
	if sum.differ != 0 {
		t.Errorf("%d of %d checks differ from the CLI", sum.differ, sum.checks)
	}
	// Links found on pages are mostly allowed, but not all: a comparison
	// that never sees a disallow would prove little.
	if sum.disallowed == 0 || sum.disallowed == sum.verdicts {
		t.Errorf("%d of %d verdicts disallow", sum.disallowed, sum.verdicts)
	}
	t.Logf("%d of %d URL lists (%d without a robots.txt), %d list/robots.txt pairs (%d read with --text), "+
		"%d URLs, %d CLI verdicts (%d agents; %d disallow), %d Go checks, %d differ from the CLI",
		len(checkedLists), lists, noRobots, n, sum.text, sum.urls, sum.verdicts, len(agents), sum.disallowed,
		sum.checks, sum.differ)
}

// checkCorpusJob compares one list with one robots.txt for every agent. It
// runs in a worker goroutine: failures are t.Errorf, never t.Fatal.
func checkCorpusJob(t *testing.T, cli string, j corpusJob, agents []corpusAgent) (c corpusCount) {
	name := j.list + " with " + filepath.Base(j.robots)
	body, err := os.ReadFile(j.robots)
	if err != nil {
		t.Error(err)
		return
	}
	input, err := os.ReadFile(j.urls)
	if err != nil {
		t.Error(err)
		return
	}
	// The CLI skips blank lines and drops a line's trailing CR.
	var urls []string
	for _, u := range strings.Split(string(input), "\n") {
		if u = strings.TrimSuffix(u, "\r"); u != "" {
			urls = append(urls, u)
		}
	}
	if len(urls) == 0 {
		t.Errorf("%s: an empty URL list", name)
		return
	}
	c.urls = len(urls)
	args := func(i int, text bool) []string {
		a := []string{"--agent", agents[i].name}
		if agents[i].ua {
			a[0] = "--user-agent"
		}
		if text {
			a = append([]string{"--text"}, a...)
		}
		return a
	}
	// As the CLI reads a SOURCE: bytes that look binary are refused by
	// both (exit 2, ErrBinary), and then both read them as text (--text,
	// ParseText).
	first, exit, err := cliVerdicts(cli, args(0, false), j.robots, input)
	r, perr := robotsc.Parse(body)
	text := exit == 2
	if text {
		if !errors.Is(perr, robotsc.ErrBinary) {
			t.Errorf("%s: the CLI refused it (%v), Parse: %v", name, err, perr)
			return
		}
		c.text = 1
		r, perr = robotsc.ParseText(body, robotsc.Google)
	} else if err != nil {
		t.Errorf("%s: %v", name, err)
		return
	}
	if perr != nil {
		t.Errorf("%s: the CLI read it, Parse: %v", name, perr)
		return
	}
	defer r.Close()
	reported := 0
	for ai, a := range agents {
		want := first
		if ai > 0 || text {
			if want, _, err = cliVerdicts(cli, args(ai, text), j.robots, input); err != nil {
				t.Errorf("%s: %v", name, err)
				return
			}
		}
		if len(want) != len(urls) {
			t.Errorf("%s %q: the CLI gave %d verdicts for %d URLs", name, a.name, len(want), len(urls))
			return
		}
		var many []bool
		if !a.ua {
			many = r.AllowedMany(urls, a.name)
		}
		for i, u := range urls {
			var got []bool
			if a.ua {
				got = []bool{r.AllowedUserAgent(u, a.name)}
			} else {
				got = []bool{many[i], r.Allowed(u, a.name), r.AllowedUserAgent(u, a.header)}
			}
			c.verdicts++
			if !want[i] {
				c.disallowed++
			}
			for k, g := range got {
				c.checks++
				if g != want[i] {
					c.differ++
					if reported++; reported <= 5 {
						how := []string{"AllowedMany", "Allowed", "AllowedUserAgent"}[k]
						if k == 2 {
							how += fmt.Sprintf("(%q)", a.header)
						} else if a.ua {
							how = "AllowedUserAgent"
						}
						t.Errorf("%s %q %s: Go's %s %v, the CLI %v", name, a.name, u, how, g, want[i])
					}
				}
			}
		}
	}
	return c
}
