/* SPDX-License-Identifier: Apache-2.0 */
/* Lint: warnings read off an IR (include/robotsc/compiler.h). Everything
 * here is a fact the front end recorded; lint only decides what is worth
 * saying, and says it in line order. */
#include <stddef.h>

#include "robotsc/compiler.h"
#include "robotsc/ir.h"

static const char *const warning_names[RSC_W_COUNT] = {
#define RSC_X_(e, n, m) n,
    RSC_WARNINGS(RSC_X_)
#undef RSC_X_
};

static const char *const warning_messages[RSC_W_COUNT] = {
#define RSC_X_(e, n, m) m,
    RSC_WARNINGS(RSC_X_)
#undef RSC_X_
};

const char *rsc_warning_name(int w)
{
    return w >= 0 && w < RSC_W_COUNT ? warning_names[w] : "unknown-warning";
}

const char *rsc_warning_message(int w)
{
    return w >= 0 && w < RSC_W_COUNT ? warning_messages[w] : "unknown warning";
}

static void emit(rsc_diag_fn fn, void *ud, int w, uint32_t line, rsc_str detail)
{
    rsc_diagnostic d;
    d.warning = w;
    d.line = line;
    d.detail = detail.len ? detail.ptr : NULL;
    d.detail_len = detail.len;
    fn(ud, &d);
}

static int has_high_byte(rsc_str s)
{
    for (size_t i = 0; i < s.len; i++)
        if ((unsigned char)s.ptr[i] >= 0x80)
            return 1;
    return 0;
}

/* The value of the user-agent line n (agents are in file order). */
static rsc_str agent_at(const rsc_ir *ir, uint32_t n)
{
    size_t lo = 0, hi = ir->n_agents;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (ir->agents[mid].line < n)
            lo = mid + 1;
        else
            hi = mid;
    }
    static const rsc_str none = {"", 0};
    return lo < ir->n_agents && ir->agents[lo].line == n ? ir->agents[lo].raw : none;
}

void rsc_lint(const rsc_ir *ir, rsc_diag_fn fn, void *ud)
{
    if (!ir || !fn)
        return;
    static const rsc_str none = {"", 0};

    /* Whole-file warnings first (line 0). */
    if (ir->truncated)
        emit(fn, ud, RSC_W_BODY_TOO_LARGE, 0, none);
    if (ir->looks_html)
        emit(fn, ud, RSC_W_NOT_ROBOTS_HTML, 0, none);
    if (ir->looks_binary)
        emit(fn, ud, RSC_W_NOT_ROBOTS_BINARY, 0, none);
    /* In an HTML page or a binary blob every line would be "invalid": one
     * whole-file warning says it better. */
    int quiet_invalid = ir->looks_html || ir->looks_binary;

    /* Rules and directives are in file order, at most one per line: walk
     * them alongside the lines. */
    size_t r = 0, d = 0;
    for (size_t i = 0; i < ir->n_lines; i++) {
        const rsc_line *l = &ir->lines[i];
        uint32_t n = l->number;
        const rsc_rule *rule = NULL;
        const rsc_directive *dir = NULL;
        while (r < ir->n_rules && ir->rules[r].line < n)
            r++;
        if (r < ir->n_rules && ir->rules[r].line == n)
            rule = &ir->rules[r];
        while (d < ir->n_directives && ir->directives[d].line < n)
            d++;
        if (d < ir->n_directives && ir->directives[d].line == n)
            dir = &ir->directives[d];

        if (l->is_line_too_long) /* spec A.4 */
            emit(fn, ud, RSC_W_LINE_TOO_LONG, n, none);
        if (l->is_missing_colon_separator) /* spec B.4 */
            emit(fn, ud, RSC_W_MISSING_COLON, n, none);
        if (l->is_acceptable_typo) /* spec C.2 */
            emit(fn, ud, RSC_W_TYPO, n, none);
        if (dir && l->tag == RSC_TAG_UNKNOWN) /* spec C.3; not the "Unused" keys */
            emit(fn, ud, RSC_W_UNKNOWN_DIRECTIVE, n, dir->key);
        if (rule) {
            if (rule->group == RSC_NO_GROUP) /* spec F.4 */
                emit(fn, ud, RSC_W_RULE_BEFORE_AGENT, n, none);
            if (rule->pattern.len && rule->pattern.ptr[0] != '/' &&
                rule->pattern.ptr[0] != '*') /* spec E.4 */
                emit(fn, ud, RSC_W_DEAD_PATTERN, n, rule->pattern);
            /* (the rfc profile normalises URLs too: no surprise there) */
            if (has_high_byte(rule->raw) && ir->profile != RSC_PROFILE_RFC) /* spec D.1, D.3 */
                emit(fn, ud, RSC_W_NON_ASCII_PATTERN, n, rule->pattern);
        }
        /* rfc profile: every line RFC 9309's ABNF rejects (the lexer's
         * verdict, rsc_abnf); a record value shown as written */
        if (l->abnf == RSC_ABNF_NOT_RECORD)
            emit(fn, ud, RSC_W_RFC_NOT_RECORD, n, none);
        else if (l->abnf == RSC_ABNF_AGENT)
            emit(fn, ud, RSC_W_RFC_AGENT, n, agent_at(ir, n));
        else if (l->abnf == RSC_ABNF_PATH)
            emit(fn, ud, RSC_W_RFC_PATH, n, rule ? rule->raw : none);
        else if (l->abnf == RSC_ABNF_BYTES && !quiet_invalid)
            emit(fn, ud, RSC_W_RFC_BYTES, n, none);
        if (!l->has_directive && !l->is_empty && !l->is_comment && !quiet_invalid &&
            l->abnf != RSC_ABNF_NOT_RECORD) /* B.6 */
            emit(fn, ud, RSC_W_INVALID_LINE, n, none);
    }
}
