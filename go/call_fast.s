// SPDX-License-Identifier: Apache-2.0

//go:build robotsc_fastcall && (amd64 || arm64)

// Empty: lets call_fast.go declare a function without a body (asmcgocall,
// linked from the runtime).
