/* SPDX-License-Identifier: Apache-2.0 */
/* Fuzz target: the front end. Any bytes -> rsc_parse() must succeed (it
 * never fails on content) and the IR invariants hold: lines numbered 1..n
 * in order with spans inside the body, every agent and rule points at a
 * valid group whose ranges contain it, every priority is its pattern's
 * length, every pattern is the spec D escaping of its raw value, every
 * token is the spec F.2 prefix of its agent value. Also rsc_lint() runs. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "robotsc/compiler.h"
#include "robotsc/ir.h"

static void count_diag(void *ud, const rsc_diagnostic *d)
{
    FUZZ_ASSERT(d->warning >= 0 && d->warning < RSC_W_COUNT);
    ++*(size_t *)ud;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rsc_parse_options o = {0};
    o.profile = size && (data[0] & 1) ? RSC_PROFILE_RFC : RSC_PROFILE_GOOGLE;
    rsc_ir *ir = NULL;
    FUZZ_ASSERT(rsc_parse(data, size, &o, &ir) == RSC_OK && ir);
    FUZZ_ASSERT(ir->body_len == (size < RSC_MAX_BODY ? size : RSC_MAX_BODY));
    FUZZ_ASSERT(ir->n_lines >= 1);
    for (size_t i = 0; i < ir->n_lines; i++) {
        const rsc_line *l = &ir->lines[i];
        FUZZ_ASSERT(l->number == i + 1);
        FUZZ_ASSERT(l->offset <= ir->body_len && l->length <= ir->body_len - l->offset);
        FUZZ_ASSERT(!(l->is_empty && l->has_directive));
        char buf[512];
        FUZZ_ASSERT(rsc_ir_record(ir, i, buf, sizeof buf) < sizeof buf);
    }
    for (size_t g = 0; g < ir->n_groups; g++) {
        const rsc_group *gr = &ir->groups[g];
        FUZZ_ASSERT(gr->n_agents >= 1);
        FUZZ_ASSERT(gr->first_agent + gr->n_agents <= ir->n_agents);
        FUZZ_ASSERT(gr->first_rule + gr->n_rules <= ir->n_rules);
    }
    for (size_t i = 0; i < ir->n_agents; i++) {
        const rsc_agent *a = &ir->agents[i];
        FUZZ_ASSERT(a->group < ir->n_groups);
        const rsc_group *gr = &ir->groups[a->group];
        FUZZ_ASSERT(i >= gr->first_agent && i < gr->first_agent + gr->n_agents);
        if (!a->global) {
            FUZZ_ASSERT(a->token.len == rsc_extract_agent(a->raw.ptr, a->raw.len));
            FUZZ_ASSERT(a->token.len == 0 || memcmp(a->token.ptr, a->raw.ptr, a->token.len) == 0);
        }
    }
    char *esc = NULL;
    for (size_t i = 0; i < ir->n_rules; i++) {
        const rsc_rule *r = &ir->rules[i];
        FUZZ_ASSERT(r->priority == r->pattern.len);
        if (r->group != RSC_NO_GROUP) {
            FUZZ_ASSERT(r->group < ir->n_groups);
            const rsc_group *gr = &ir->groups[r->group];
            FUZZ_ASSERT(i >= gr->first_rule && i < gr->first_rule + gr->n_rules);
        }
        esc = realloc(esc, 3 * r->raw.len + 1);
        FUZZ_ASSERT(esc != NULL);
        size_t n = rsc_escape_pattern(r->raw.ptr, r->raw.len, esc);
        FUZZ_ASSERT(n == r->pattern.len && memcmp(esc, r->pattern.ptr, n) == 0);
    }
    free(esc);
    for (size_t i = 1; i < ir->n_rules; i++)
        FUZZ_ASSERT(ir->rules[i - 1].line < ir->rules[i].line);
    size_t nd = 0;
    rsc_lint(ir, count_diag, &nd);
    rsc_ir_free(ir);
    return 0;
}
