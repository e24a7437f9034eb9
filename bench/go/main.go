// SPDX-License-Identifier: Apache-2.0

// Command bench measures robotsc's Go binding against C in one process:
// per check on every corpus URL list (bench/jobs.awk), through
// Robots.Allowed, Selection.Allowed, AllowedManyTo (one crossing a list)
// and the temoto/robotstxt face's TestAgent, against the same selection
// matched in a C loop; per parse, Go's Parse against rsc_compile +
// rsc_load in C; and one empty cgo call. bench/go/run.sh runs it.
package main

/*
#cgo pkg-config: robotsc
#include "cbench.h"
*/
import "C"

import (
	"bufio"
	"flag"
	"fmt"
	"net/url"
	"os"
	"runtime"
	"sort"
	"strings"
	"time"
	"unsafe"

	robotsc "github.com/robotsc/robotsc/go"
	"github.com/robotsc/robotsc/go/robotstxt"
)

var (
	jobsFile = flag.String("jobs", "", "name<TAB>robots.txt<TAB>urls lines (bench/jobs.awk)")
	agent    = flag.String("agent", "Googlebot", "the crawler's name")
	rounds   = flag.Int("rounds", 5, "rounds per list (the median is kept)")
	minMS    = flag.Float64("min-ms", 2, "least time of one round, ms")
	limit    = flag.Int("n", 0, "at most this many lists (0: all)")
	perList  = flag.String("lists", "", "write per-list figures (TSV) here")
	summary  = flag.String("tsv", "", "write the summary (language, mode, ns_per_check, c_ns, ratio) here")
	langTSV  = flag.String("langtsv", "", "append bench/run.sh's per-language rows (the first list) here")
)

var sinkB bool
var sinkI C.int

type job struct{ name, robots, urls string }

// A mode is one timed operation: run(reps) does it reps times over its
// list and gives ns (thread CPU time) per unit.
type mode struct {
	name string
	run  func(reps int) float64
	reps int
}

// measure calibrates each mode's reps to about minMS of wall time, then
// runs rounds, every mode once a round (interleaved: a slow moment of the
// machine falls on all of them), and gives each mode's median.
func measure(ms []*mode) map[string]float64 {
	for _, m := range ms {
		m.reps = 1
		for {
			t0 := time.Now()
			m.run(m.reps)
			if el := time.Since(t0); float64(el) >= *minMS*1e6 || m.reps > 1<<24 {
				break
			}
			m.reps *= 2
		}
	}
	xs := map[string][]float64{}
	for r := 0; r < *rounds; r++ {
		for _, m := range ms {
			xs[m.name] = append(xs[m.name], m.run(m.reps))
		}
	}
	out := map[string]float64{}
	for k, v := range xs {
		out[k] = median(v)
	}
	return out
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func pct(xs []float64, p float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[int(p*float64(len(s)-1)+0.5)]
}

func goTime(n int, reps int, body func()) float64 {
	t0 := C.cb_now()
	for r := 0; r < reps; r++ {
		body()
	}
	return float64(C.cb_now()-t0) / float64(reps*n)
}

// The modes, in the order of the tables.
var modes = []string{"c", "go_allowed", "go_selection", "go_many", "go_face", "c_parse", "go_parse"}

func main() {
	flag.Parse()
	// Thread CPU time measures this goroutine's work only while it stays
	// on one thread (cgo calls run on the calling thread).
	runtime.LockOSThread()
	jobs := readJobs(*jobsFile)
	if *limit > 0 && len(jobs) > *limit {
		jobs = jobs[:*limit]
	}
	res := map[string][]float64{}
	ratios := map[string][]float64{}
	var lists *bufio.Writer
	if *perList != "" {
		f, err := os.Create(*perList)
		check(err)
		defer f.Close()
		lists = bufio.NewWriter(f)
		defer lists.Flush()
		fmt.Fprintln(lists, "list\turls\t"+strings.Join(modes, "\t"))
	}
	a := *agent
	done := 0
	for _, j := range jobs {
		body, err := os.ReadFile(j.robots)
		check(err)
		urls := readURLs(j.urls)
		if len(urls) == 0 {
			continue
		}
		r, err := robotsc.ParseText(body, robotsc.Google)
		check(err)
		face, err := robotstxt.FromBytes(body)
		check(err)
		// The face takes a path: give it what a crawler's url.URL gives.
		paths := make([]string, len(urls))
		for i, u := range urls {
			paths[i] = u
			if pu, err := url.Parse(u); err == nil && pu.Host != "" {
				paths[i] = pu.EscapedPath()
				if pu.RawQuery != "" {
					paths[i] += "?" + pu.RawQuery
				}
				if paths[i] == "" {
					paths[i] = "/"
				}
			}
		}
		sel, err := r.Select(a)
		check(err)
		blob := r.Bytes()
		buf, ends := pack(urls)
		out := make([]bool, len(urls))
		cblob := C.CBytes(blob)
		ab := C.CString(a)
		cbody := C.CBytes(body)
		f := measure([]*mode{
			{name: "c", run: func(reps int) float64 {
				return float64(C.cb_match(cblob, C.size_t(len(blob)), ab, C.size_t(len(a)),
					(*C.char)(unsafe.Pointer(&buf[0])), &ends[0], C.size_t(len(urls)), C.int(reps), &sinkI))
			}},
			{name: "go_allowed", run: func(reps int) float64 {
				return goTime(len(urls), reps, func() {
					for _, u := range urls {
						sinkB = r.Allowed(u, a) != sinkB
					}
				})
			}},
			{name: "go_selection", run: func(reps int) float64 {
				return goTime(len(urls), reps, func() {
					for _, u := range urls {
						sinkB = sel.Allowed(u) != sinkB
					}
				})
			}},
			{name: "go_many", run: func(reps int) float64 {
				return goTime(len(urls), reps, func() { r.AllowedManyTo(out, urls, a) })
			}},
			{name: "go_face", run: func(reps int) float64 {
				return goTime(len(paths), reps, func() {
					for _, p := range paths {
						sinkB = face.TestAgent(p, a) != sinkB
					}
				})
			}},
			{name: "c_parse", run: func(reps int) float64 {
				return float64(C.cb_parse((*C.char)(cbody), C.size_t(len(body)), C.int(reps), &sinkI))
			}},
			{name: "go_parse", run: func(reps int) float64 {
				return goTime(1, reps, func() {
					x, err := robotsc.ParseText(body, robotsc.Google)
					check(err)
					x.Close()
				})
			}},
		})
		C.free(cblob)
		C.free(cbody)
		C.free(unsafe.Pointer(ab))
		// Verdicts: every Go path equals C's (AllowedMany is rsc_match_url).
		r.AllowedManyTo(out, urls, a)
		for i, u := range urls {
			if r.Allowed(u, a) != out[i] || sel.Allowed(u) != out[i] {
				fmt.Fprintf(os.Stderr, "%s: verdicts differ on %s\n", j.name, u)
				os.Exit(1)
			}
		}
		inGo := sel.RunsInGo()
		sel.Close()
		r.Close()
		face.Close()
		for _, m := range modes {
			res[m] = append(res[m], f[m])
		}
		for _, m := range []string{"go_allowed", "go_selection", "go_many", "go_face"} {
			ratios[m] = append(ratios[m], f[m]/f["c"])
		}
		ratios["go_parse"] = append(ratios["go_parse"], f["go_parse"]/f["c_parse"])
		if *langTSV != "" && done == 0 {
			langRows(j.name, len(urls), f, inGo)
		}
		if lists != nil {
			fmt.Fprintf(lists, "%s\t%d", j.name, len(urls))
			for _, m := range modes {
				fmt.Fprintf(lists, "\t%.2f", f[m])
			}
			fmt.Fprintln(lists)
		}
		done++
	}
	// One empty cgo call, and the Go loop around it.
	crossing := measure([]*mode{{name: "cgo", run: func(reps int) float64 {
		return goTime(1000, reps, func() {
			for i := 0; i < 1000; i++ {
				sinkI = C.cb_empty(sinkI)
			}
		})
	}}})["cgo"]
	report(done, res, ratios, crossing)
}

func report(n int, res, ratios map[string][]float64, crossing float64) {
	fmt.Printf("go %s, %s/%s, GOMAXPROCS %d; robotsc %s; %d lists, agent %s\n",
		runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.GOMAXPROCS(0), robotsc.Version(), n, *agent)
	fmt.Printf("cgo: one call of an empty C function: %.1f ns\n\n", crossing)
	fmt.Println("| mode | ns per check, median list | p90 list | ratio to C per list: median (p10 / p90) |")
	fmt.Println("| --- | --- | --- | --- |")
	fmt.Printf("| C: rsc_match_url in a C loop | %.1f | %.1f | 1 |\n", median(res["c"]), pct(res["c"], 0.9))
	names := map[string]string{
		"go_allowed":   "Go: Robots.Allowed(url, agent)",
		"go_selection": "Go: Selection.Allowed(url)",
		"go_many":      "Go: AllowedManyTo (one call a list)",
		"go_face":      "Go: robotstxt face TestAgent(path, agent)",
	}
	var tsv *bufio.Writer
	if *summary != "" {
		f, err := os.Create(*summary)
		check(err)
		defer f.Close()
		tsv = bufio.NewWriter(f)
		defer tsv.Flush()
		fmt.Fprintln(tsv, "language\tmode\tns_per_check\tc_ns\tratio")
		fmt.Fprintf(tsv, "c\tcheck\t%.2f\t%.2f\t1.000\n", median(res["c"]), median(res["c"]))
	}
	for _, m := range []string{"go_allowed", "go_selection", "go_many", "go_face"} {
		fmt.Printf("| %s | %.1f | %.1f | %.3f (%.3f / %.3f) |\n", names[m], median(res[m]), pct(res[m], 0.9),
			median(ratios[m]), pct(ratios[m], 0.1), pct(ratios[m], 0.9))
		if tsv != nil {
			fmt.Fprintf(tsv, "go\t%s\t%.2f\t%.2f\t%.3f\n", strings.TrimPrefix(m, "go_"), median(res[m]), median(res["c"]), median(ratios[m]))
		}
	}
	fmt.Println()
	fmt.Println("| parse | µs, median list | p90 list | ratio to C per list: median |")
	fmt.Println("| --- | --- | --- | --- |")
	fmt.Printf("| C: rsc_compile + rsc_load | %.2f | %.2f | 1 |\n", median(res["c_parse"])/1e3, pct(res["c_parse"], 0.9)/1e3)
	fmt.Printf("| Go: ParseText + Close | %.2f | %.2f | %.3f |\n", median(res["go_parse"])/1e3, pct(res["go_parse"], 0.9)/1e3, median(ratios["go_parse"]))
	if tsv != nil {
		fmt.Fprintf(tsv, "go\tparse_ns\t%.1f\t%.1f\t%.3f\n", median(res["go_parse"]), median(res["c_parse"]), median(ratios["go_parse"]))
		fmt.Fprintf(tsv, "go\tcgo_call_ns\t%.2f\t\t\n", crossing)
	}
}

// langRows appends bench/run.sh's per-language rows (its comment: language,
// mode, list, urls, ns_per_check, c_ns_per_check, note) for one list.
func langRows(list string, n int, f map[string]float64, inGo bool) {
	_, err := os.Stat(*langTSV)
	fresh := os.IsNotExist(err)
	fh, err := os.OpenFile(*langTSV, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	check(err)
	defer fh.Close()
	if fresh {
		fmt.Fprintln(fh, "language\tmode\tlist\turls\tns_per_check\tc_ns_per_check\tnote")
	}
	how := "cgo"
	if robotsc.FastCall {
		how = "-tags robotsc_fastcall"
	}
	if inGo {
		how = "the blob's DFA run in Go, no cgo call"
		if robotsc.FastCall {
			how += "; -tags robotsc_fastcall"
		}
	}
	row := func(mode, m, note, how string) {
		fmt.Fprintf(fh, "Go\t%s\t%s\t%d\t%.2f\t%.2f\t%s (%s; C in the same process)\n", mode, list, n, f[m], f["c"], note, how)
	}
	row("single", "go_selection", "Selection.Allowed(url)", how)
	row("single", "go_allowed", "Robots.Allowed(url, agent)", how)
	// A batch of 8 URLs or more crosses into C once, whatever the selection
	// (go/dfa.go, batchInC).
	many := "the URLs packed, one cgo call"
	if robotsc.FastCall {
		many = "the URLs read in place, one call; -tags robotsc_fastcall"
	}
	if n < 8 && inGo {
		many = how
	}
	row("batch", "go_many", "AllowedManyTo, one call a list", many)
}

func pack(urls []string) ([]byte, []C.size_t) {
	var buf []byte
	ends := make([]C.size_t, len(urls))
	for i, u := range urls {
		buf = append(buf, u...)
		ends[i] = C.size_t(len(buf))
	}
	buf = append(buf, 0) // &buf[0] exists for lists of empty URLs
	return buf, ends
}

func readJobs(path string) []job {
	data, err := os.ReadFile(path)
	check(err)
	var jobs []job
	for _, l := range strings.Split(string(data), "\n") {
		c := strings.Split(l, "\t")
		if len(c) == 3 {
			jobs = append(jobs, job{c[0], c[1], c[2]})
		}
	}
	return jobs
}

// readURLs: one a line, as robotsc bench reads them (blank lines skipped).
func readURLs(path string) []string {
	data, err := os.ReadFile(path)
	check(err)
	var urls []string
	for _, l := range strings.Split(string(data), "\n") {
		l = strings.TrimSuffix(l, "\r")
		if l != "" {
			urls = append(urls, l)
		}
	}
	return urls
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}
