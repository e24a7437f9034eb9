/* SPDX-License-Identifier: Apache-2.0 */
/* Private interface of the front end: the state shared by the lexer
 * (lexer.re), the grammar (parser.y) and the IR builder (ir.c).
 *
 * Pipeline: ir.c copies the body (after the 500 KiB cut) into an arena, the
 * lexer splits it into lines (spec A) and turns each line into at most one
 * directive token plus EOL (spec B, C), the grammar groups the lines
 * (spec F.3, F.4) and calls the builder, which fills the IR arrays. */
#ifndef RSC_FRONT_H
#define RSC_FRONT_H

#include <stddef.h>
#include <stdint.h>

#include "mem.h"
#include "robotsc/ir.h"

/* Semantic value of a directive token: a line and two spans of the body. */
typedef struct rsc_tok {
    uint32_t line; /* index into ir->lines */
    uint32_t key_off, key_len;
    uint32_t val_off, val_len;
} rsc_tok;

/* Private part of an rsc_ir (ir->priv): the allocator and what to free. */
typedef struct rsc_ir_priv {
    rsc_mem mem;
    char *arena; /* body copy + NUL, then room for escaped values */
    size_t arena_size, arena_used;
    size_t cap_lines, cap_groups, cap_agents, cap_rules, cap_sitemaps,
        cap_directives;
} rsc_ir_priv;

typedef struct rsc_front {
    rsc_ir *ir;
    rsc_ir_priv *pv;
    /* lexer state (lexer.re) */
    const unsigned char *body; /* arena copy of the parsed body, NUL after */
    size_t len;                /* body_len */
    size_t pos;                /* next byte to split into lines */
    int at_line_start;         /* a (possibly empty) line is still due, A.3 */
    int pending_eol;           /* an EOL token follows the directive token */
    /* builder state (ir.c) */
    uint32_t cur_group; /* group of the last user-agent line, or RSC_NO_GROUP */
    uint32_t n_invalid; /* lines recovered by `error EOL` */
} rsc_front;

/* Lexer: splits the whole body into lines, filling ir->lines (spec A-C).
 * Called by the grammar through rsc_yylex (declared in parser.h). */
void rsc_lex_init(rsc_front *f);

/* Grammar (parser.y): 0 on success, nonzero when the parser itself ran out
 * of memory (cannot happen: the stack depth is bounded). */
int rsc_front_parse(rsc_front *f);

/* Builder (ir.c): the grammar's actions. Each returns 0, or -1 when an
 * allocation failed (pv->mem.failed is then set). */
int rsc_build_group(rsc_front *f, const rsc_tok *t);
int rsc_build_agent(rsc_front *f, const rsc_tok *t);
int rsc_build_rule(rsc_front *f, const rsc_tok *t, int allow, uint32_t group);
int rsc_build_sitemap(rsc_front *f, const rsc_tok *t);
int rsc_build_directive(rsc_front *f, const rsc_tok *t);
/* Appends one line record; returns its index or -1. */
long rsc_build_line(rsc_front *f, const rsc_line *l);

/* Lint tag of a key (spec C): fills *typo. Lexer (re2c rules). */
rsc_tag rsc_classify_key(const unsigned char *key, size_t len, int *typo);

#endif
