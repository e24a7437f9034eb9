// SPDX-License-Identifier: Apache-2.0

package robotsc_test

import (
	"testing"

	robotsc "github.com/robotsc/robotsc/go"
)

// Micro-benchmarks of one check (bench/go measures the corpus lists).
func BenchmarkAllowed(b *testing.B) {
	r := mustParse(b, sample)
	defer r.Close()
	url := "https://example.com/private/open/page.html?q=1"
	for i := 0; i < b.N; i++ {
		r.Allowed(url, "FooBot")
	}
}

func BenchmarkSelectionAllowed(b *testing.B) {
	r := mustParse(b, sample)
	defer r.Close()
	s, _ := r.Select("FooBot")
	url := "https://example.com/private/open/page.html?q=1"
	for i := 0; i < b.N; i++ {
		s.Allowed(url)
	}
}

func BenchmarkAllowedMany100(b *testing.B) {
	r := mustParse(b, sample)
	defer r.Close()
	urls := make([]string, 100)
	for i := range urls {
		urls[i] = "https://example.com/private/open/page.html?q=1"
	}
	out := make([]bool, len(urls))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r.AllowedManyTo(out, urls, "FooBot")
	}
}

func BenchmarkParse(b *testing.B) {
	body := []byte(sample)
	for i := 0; i < b.N; i++ {
		r, err := robotsc.Parse(body)
		if err != nil {
			b.Fatal(err)
		}
		r.Close()
	}
}
