/* Runtime-internal: little-endian loads and the layout of rsc_program's
 * private fields, which rsc_load() fills so that matching needs no lookups.
 * Every offset in priv[] is absolute (from the blob start); an absent
 * section has offset 0 and count 0. */
#ifndef ROBOTSC_PROGRAM_H
#define ROBOTSC_PROGRAM_H

#include <stdint.h>
#include <string.h>

#include "robotsc/runtime.h"

enum rsc_priv {
    P_STR_OFF, P_STR_SIZE,                /* STRINGS                        */
    P_RULES, P_RULE_COUNT,                /* first RULES entry, Rule_Count  */
    P_AUT, P_AUT_COUNT,                   /* AUTOMATA section start, count  */
    P_SETS, P_SET_COUNT, P_SET_LIST,      /* first {First, N}, count, List  */
    P_AGENTS, P_AGENT_COUNT, P_GLOBAL_SET, /* Global_Set NONE when absent   */
    P_GROUPS, P_GROUP_COUNT, P_GROUP_LIST,
    P_SITEMAPS, P_SITEMAP_COUNT,          /* first entry, count             */
    P_DIRS, P_DIR_COUNT,
    P_COUNT_
};
typedef char rsc_priv_fits_[P_COUNT_ <= 30 ? 1 : -1];

/* memcpy loads fold into one instruction; shifts on big-endian hosts. */
static inline uint32_t rsc_rd32(const uint8_t *p)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
#else
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
#endif
}

static inline uint32_t rsc_rd16(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

#endif
