/* SPDX-License-Identifier: Apache-2.0 */
/* robotsc: compile robots.txt files into verified automaton bytecode and
 * check URLs against them. One function per command (cli.h). */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "robotsc/runtime.h"

static const struct {
    const char *name;
    int (*fn)(int, char **);
    const char *what;
} commands[] = {
    {"compile", rsc_cmd_compile, "compile a robots.txt into a blob"},
    {"check", rsc_cmd_check, "check URLs against a robots.txt or a blob"},
    {"lint", rsc_cmd_lint, "report problems in a robots.txt"},
    {"diff", rsc_cmd_diff, "which paths change verdict between two robots.txt files"},
    {"parse", rsc_cmd_parse, "print the parsed robots.txt as JSON"},
    {"dump", rsc_cmd_dump, "disassemble a blob"},
    {"info", rsc_cmd_info, "summarise a robots.txt or a blob"},
    {"url", rsc_cmd_url, "print the robots.txt URL and origin key of a URL"},
    {"fetch", rsc_cmd_fetch, "fetch, apply the status policy, compile, check"},
    {"bench", rsc_cmd_bench, "time compile, verify and matching against a URL list"},
    {"upgrade", rsc_cmd_upgrade, "rebuild a format-4 blob in the current format"},
#ifdef RSC_HAVE_STORE
    {"store", rsc_cmd_store, "build and query an LMDB store of blobs keyed by origin"},
#endif
};

static void usage(FILE *out)
{
    fputs("usage: robotsc COMMAND [ARGS]   (robotsc COMMAND --help for more)\n"
          "       robotsc --version\n\ncommands:\n", out);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].what);
    fputs("\nExit status: 0 success (check: allowed), 1 lint warnings (check: disallowed),\n"
          "2 usage or input errors. Manual: man robotsc; blob format: man robotsc-format.\n", out);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (rsc_cli_is_help(argv[1])) {
        usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        /* The library's version: a replaced shared library shows here. */
        printf("robotsc %s\n", rsc_version());
        return 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].fn(argc - 1, argv + 1);
    fprintf(stderr, "robotsc: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}
