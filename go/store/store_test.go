// SPDX-License-Identifier: Apache-2.0

package store_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	robotsc "github.com/robotsc/robotsc/go"
	"github.com/robotsc/robotsc/go/store"
)

const body = "User-agent: *\nDisallow: /private\n\nUser-agent: BadBot\nDisallow: /\n"

func open(t *testing.T) (*store.Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "robots.db")
	s, err := store.Open(path, &store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, path
}

func TestPutGetCheck(t *testing.T) {
	s, _ := open(t)
	r, err := robotsc.Parse([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	key, err := store.OriginKey("https://WWW.Example.com:443/a/b?c")
	if err != nil || key != "https://www.example.com" {
		t.Fatalf("OriginKey: %q %v", key, err)
	}
	if err := s.Put(key, r, store.Meta{SourceURL: key + "/robots.txt", FetchedAt: 100, Expires: 1000, HTTPStatus: 200}); err != nil {
		t.Fatal(err)
	}
	got, meta, err := s.Get(key)
	if err != nil || meta.HTTPStatus != 200 || meta.Expires != 1000 || got.Allowed("/private", "x") {
		t.Fatalf("Get: %v %+v", err, meta)
	}
	got.Close()
	for _, c := range []struct {
		url, agent string
		allow      bool
	}{
		{"https://www.example.com/private/x", "GoodBot", false},
		{"https://www.example.com/public", "GoodBot", true},
		{"https://www.example.com/public", "BadBot", false},
	} {
		if v, err := s.Allowed(c.url, c.agent, 500); err != nil || v != c.allow {
			t.Errorf("Allowed(%s, %s) = %v, %v", c.url, c.agent, v, err)
		}
	}
	// Expired at now >= expires; another origin has no record; no origin.
	if _, err := s.Allowed("https://www.example.com/", "x", 1000); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("expired: %v", err)
	}
	if _, err := s.Allowed("https://other.example/", "x", 0); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("other origin: %v", err)
	}
	if _, err := s.Allowed("mailto:a@b", "x", 0); !errors.Is(err, store.ErrNoRobots) {
		t.Errorf("no origin: %v", err)
	}
	rd, err := s.Reader("GoodBot")
	if err != nil {
		t.Fatal(err)
	}
	urls := []string{"https://www.example.com/private", "https://www.example.com/x", "https://none.example/", "https://www.example.com/private/2"}
	for round := 0; round < 40; round++ { // past the cache's DFA thresholds
		v, errs := rd.AllowedMany(urls, 0)
		if v[0] || !v[1] || v[3] || errs == nil || errs[0] != nil || !errors.Is(errs[2], store.ErrNotFound) {
			t.Fatalf("AllowedMany round %d: %v %v", round, v, errs)
		}
	}
	rd.Close()
	if err := s.Delete(key); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Get(key); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Get after Delete: %v", err)
	}
}

func TestRefusesBadInput(t *testing.T) {
	s, _ := open(t)
	r, _ := robotsc.Parse([]byte(body))
	blob := r.Bytes()
	blob[len(blob)-1] ^= 1
	if err := s.PutBlob("https://a.example", blob, store.Meta{}); err == nil {
		t.Error("a damaged blob was stored")
	}
	if err := s.PutBlob("https://a.example", []byte(body), store.Meta{}); err == nil {
		t.Error("robots.txt text was stored as a blob")
	}
	if err := s.Put("https://A.example/x", r, store.Meta{}); !errors.Is(err, store.ErrKey) {
		t.Errorf("a non-canonical key: %v", err)
	}
	if _, err := store.Open(filepath.Join(t.TempDir(), "none", "x.db"), &store.Options{ReadOnly: true}); err == nil {
		t.Error("opening a missing store read-only succeeded")
	}
}

// Goroutines, each with its own Reader, share one Store.
func TestConcurrentReaders(t *testing.T) {
	s, _ := open(t)
	r, _ := robotsc.Parse([]byte(body))
	if err := s.Put("https://www.example.com", r, store.Meta{}); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rd, err := s.Reader("GoodBot")
			if err != nil {
				t.Error(err)
				return
			}
			defer rd.Close()
			for i := 0; i < 500; i++ {
				v, err := rd.Allowed("https://www.example.com/private/x", 0)
				w, err2 := rd.Allowed("https://www.example.com/open", 0)
				if err != nil || err2 != nil || v || !w {
					t.Errorf("reader: %v %v %v %v", v, w, err, err2)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// A store Go wrote is read by the CLI, and one the CLI wrote by Go.
func TestStoreInterchangeWithCLI(t *testing.T) {
	cli := os.Getenv("ROBOTSC_CLI")
	if cli == "" {
		t.Skip("ROBOTSC_CLI is not set: the CLI comparisons are skipped (go/test.sh sets it)")
	}
	s, path := open(t)
	r, _ := robotsc.Parse([]byte(body))
	if err := s.Put("https://go.example", r, store.Meta{}); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(t.TempDir(), "robots.txt")
	os.WriteFile(src, []byte("User-agent: *\nDisallow: /cli\n"), 0o644)
	if out, err := exec.Command(cli, "store", "put", path, "https://cli.example", src).CombinedOutput(); err != nil {
		t.Fatalf("robotsc store put: %v: %s", err, out)
	}
	out, err := exec.Command(cli, "store", "check", path, "--agent", "GoodBot",
		"https://go.example/private", "https://go.example/x", "https://cli.example/cli").Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
			t.Fatalf("robotsc store check: %v", err)
		}
	}
	want := "disallow\thttps://go.example/private\nallow\thttps://go.example/x\ndisallow\thttps://cli.example/cli\n"
	if string(out) != want {
		t.Errorf("the CLI on Go's store:\n%s", out)
	}
	if v, err := s.Allowed("https://cli.example/cli/a", "GoodBot", 0); err != nil || v {
		t.Errorf("Go on the CLI's record: %v %v", v, err)
	}
}
