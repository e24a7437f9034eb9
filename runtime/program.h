/* Runtime-internal: little-endian and varint loads, and the layout of
 * rsc_program's private fields, which rsc_load() fills so that matching
 * needs no lookups. Every offset in priv[] is absolute (from the blob
 * start); an absent section has offset 0 and count 0. The dumper reads
 * verified programs with these helpers too. */
#ifndef ROBOTSC_PROGRAM_H
#define ROBOTSC_PROGRAM_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "codec.h"
#include "robotsc/runtime.h"

/* A table takes three words: rows offset, Count, and its packed shape
 * (column widths 4 bits each from bit 0, row size from bit 24). */
enum rsc_priv {
    P_STR_OFF, P_STR_SIZE,             /* STRINGS                          */
    P_RULES, P_RULES_N, P_RULES_W,     /* RULES table                      */
    P_PROGS, P_PROGS_N, P_PROGS_W,     /* PROGRAMS End table               */
    P_PROG_DATA,                       /* PROGRAMS Data                    */
    P_SETS, P_SETS_N, P_SETS_W,
    P_SLIST, P_SLIST_N, P_SLIST_W,
    P_AGENTS, P_AGENTS_N, P_AGENTS_W,
    P_GLOBAL,                          /* 0 none, else 1 + the set         */
    P_GROUPS, P_GROUPS_N, P_GROUPS_W,
    P_GLIST, P_GLIST_N, P_GLIST_W,
    P_SITEMAPS, P_SITEMAPS_N, P_SITEMAPS_W,
    P_DIRS, P_DIRS_N, P_DIRS_W,
    P_COUNT_
};
typedef char rsc_priv_fits_[P_COUNT_ <= 40 ? 1 : -1];

#define PRIV(prog, f) ((prog)->priv[f])
#define STR(prog) ((prog)->base + (prog)->priv[P_STR_OFF])

/* ASCII lower case: agents (F.2) and directive keys. */
static inline uint8_t rsc_lower(uint8_t c)
{
    return c >= 'A' && c <= 'Z' ? (uint8_t)(c + 32) : c;
}

/* Runtime-internal functions shared between its files. */
/* Spec G up to the path's start (url.c): 0 when the path is "/". */
int rsc_path_start(const char *url, size_t len, size_t *off, int *slash);
/* Set k's programs are positions [*j, *end) of the SETS list (select.c). */
void rsc_set_span(const rsc_program *prog, uint32_t k, uint32_t *j, uint32_t *end);
/* The Data offset of the program at position j of a set span. */
uint32_t rsc_program_at(const rsc_program *prog, uint32_t j);

#define RSC_TAB_WIDTH(pack, col) (((pack) >> (4 * (col))) & 0xfu)
#define RSC_TAB_ROW(pack) ((pack) >> 24)

/* Column col of row r of the table whose three priv words start at t. */
static inline uint32_t rsc_tab(const rsc_program *prog, int t, uint32_t r, unsigned col)
{
    uint32_t pack = prog->priv[t + 2];
    const uint8_t *p = prog->base + prog->priv[t] + (size_t)r * RSC_TAB_ROW(pack);
    for (unsigned c = 0; c < col; c++)
        p += RSC_TAB_WIDTH(pack, c);
    return rsc_rdn(p, RSC_TAB_WIDTH(pack, col));
}

/* Group g's agents: GROUPS List[*first .. *first + return value). */
static inline uint32_t rsc_group_agents(const rsc_program *prog, uint32_t g, uint32_t *first)
{
    uint32_t next = g + 1 < prog->priv[P_GROUPS_N] ? rsc_tab(prog, P_GROUPS, g + 1, 1)
                                                   : prog->priv[P_GLIST_N];
    *first = rsc_tab(prog, P_GROUPS, g, 1);
    return next - *first;
}

#endif
