// SPDX-License-Identifier: Apache-2.0

//go:build race

package robotsc_test

// The race detector drops sync.Pool items at random: allocation counts
// that rely on a pool are not checked under it.
const raceEnabled = true
