// SPDX-License-Identifier: Apache-2.0

package robotsc_test

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A verdict row of tests/data/conformance (its README: id, base64 body,
// agent, URL, expected).
type row struct {
	id, agent, url string
	body           []byte
	want           bool
}

func conformanceRows(t testing.TB) []row {
	files, err := filepath.Glob(filepath.Join("..", "tests", "data", "conformance", "*_cases.tsv"))
	if err != nil || len(files) == 0 {
		t.Fatalf("conformance vectors not found (tests/data/conformance): %v", err)
	}
	var rows []row
	for _, f := range files {
		if strings.HasSuffix(f, "_helper_cases.tsv") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range bytes.Split(data, []byte("\n")) {
			line = bytes.TrimRight(line, "\r")
			if len(line) == 0 {
				continue
			}
			cols := bytes.Split(line, []byte("\t"))
			if len(cols) != 5 {
				t.Fatalf("%s: %d columns in %q", f, len(cols), line)
			}
			body, err := base64.StdEncoding.DecodeString(string(cols[1]))
			if err != nil {
				t.Fatalf("%s %s: %v", f, cols[0], err)
			}
			rows = append(rows, row{string(cols[0]), string(cols[2]), string(cols[3]), body, string(cols[4]) == "1"})
		}
	}
	return rows
}

// cliPath is $ROBOTSC_CLI; tests that compare with the CLI skip without it.
func cliPath(t testing.TB) string {
	p := os.Getenv("ROBOTSC_CLI")
	if p == "" {
		t.Skip("ROBOTSC_CLI is not set: the CLI comparisons are skipped (go/test.sh sets it)")
	}
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("ROBOTSC_CLI=%s: %v", p, err)
	}
	return p
}

// cliCheck runs `robotsc check` on source for urls (on standard input,
// none empty) with --agent (or --user-agent when ua) and returns the
// verdicts, or ok false when the CLI refused the source (exit 2).
func cliCheck(t testing.TB, cli, source, agent string, ua bool, urls []string) ([]bool, bool) {
	flag := "--agent"
	if ua {
		flag = "--user-agent"
	}
	cmd := exec.Command(cli, "check", flag, agent, source)
	cmd.Stdin = strings.NewReader(strings.Join(urls, "\n") + "\n")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 2 {
			return nil, false
		}
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
			t.Fatalf("%s check %s: %v: %s", cli, source, err, stderr.String())
		}
	}
	var got []bool
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		v, _, _ := strings.Cut(sc.Text(), "\t")
		switch v {
		case "allow":
			got = append(got, true)
		case "disallow":
			got = append(got, false)
		default:
			t.Fatalf("CLI line %q", sc.Text())
		}
	}
	if len(got) != len(urls) {
		t.Fatalf("CLI gave %d verdicts for %d URLs", len(got), len(urls))
	}
	return got, true
}

// corpusDir is ../shared/corpus (ROBOTSC_SHARED_DIR/corpus), or a skip.
func corpusDir(t testing.TB) string {
	shared := os.Getenv("ROBOTSC_SHARED_DIR")
	if shared == "" {
		shared = filepath.Join("..", "..", "shared")
	}
	d := filepath.Join(shared, "corpus")
	if _, err := os.Stat(filepath.Join(d, "robots")); err != nil {
		t.Skipf("shared corpus absent (%s): corpus tests skipped", d)
	}
	return d
}

func runCLI(cli string, args ...string) ([]byte, error) {
	return exec.Command(cli, args...).CombinedOutput()
}

// A helper row of tests/data/conformance (its README: id, function, input,
// expected; input and expected C-escaped).
type helperRow struct{ id, fn, input, want string }

func helperRows(t testing.TB) []helperRow {
	files, _ := filepath.Glob(filepath.Join("..", "tests", "data", "conformance", "*_helper_cases.tsv"))
	if len(files) == 0 {
		t.Fatal("conformance helper files not found")
	}
	var rows []helperRow
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(data), "\n") {
			cols := strings.Split(strings.TrimRight(line, "\r"), "\t")
			if len(cols) != 4 {
				continue
			}
			rows = append(rows, helperRow{cols[0], cols[1], unescapeC(t, cols[2]), unescapeC(t, cols[3])})
		}
	}
	return rows
}

func unescapeC(t testing.TB, s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch c := s[i]; c {
		case '\\', '"':
			b.WriteByte(c)
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		default:
			if i+2 >= len(s) {
				t.Fatalf("bad escape in %q", s)
			}
			v := 0
			for _, d := range s[i : i+3] {
				if d < '0' || d > '7' {
					t.Fatalf("bad escape in %q", s)
				}
				v = v*8 + int(d-'0')
			}
			b.WriteByte(byte(v))
			i += 2
		}
	}
	return b.String()
}
