// SPDX-License-Identifier: Apache-2.0

//go:build !race

package robotsc_test

const raceEnabled = false
