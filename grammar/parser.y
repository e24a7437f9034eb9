/* SPDX-License-Identifier: Apache-2.0 */
/* robots.txt grammar (bison): RFC 9309 section 2.2 with Google's leniency.
 *
 *   robotstxt      = *(group / emptyline)
 *   group          = startgroupline *(startgroupline / emptyline) *(rule / emptyline)
 *   startgroupline = *WS "user-agent" *WS ":" *WS product-token EOL
 *   rule           = *WS ("allow" / "disallow") *WS ":" *WS (path-pattern / empty-pattern) EOL
 *
 * The lexer (lexer.re) has already reduced every line to one token plus
 * EOL. Google's leniency shows up here as "neutral" lines, which may stand
 * anywhere and change nothing (spec B.6, C.3, F.3): empty and comment lines
 * (RFC emptyline), sitemap lines, unknown keys, and text that is no
 * directive at all. The last kind arrives as JUNK, which no rule accepts:
 * it is a syntax error, recovered by `error EOL` in the state where it
 * occurs, so an invalid line between two user-agent lines leaves one group
 * (spec F.3). `lr.default-reduction consistent` guarantees that state: no
 * default reduction may close a group before the error is seen. (Bison
 * already keeps explicit lookaheads in states that shift `error`; the
 * setting makes the guarantee independent of that.) Rules before the first
 * user-agent line form the preamble (spec F.4). */
%define api.pure full
%define api.prefix {rsc_yy}
%define api.token.prefix {RSC_T_}
%define api.value.type {rsc_tok}
%define lr.default-reduction consistent
%parse-param {rsc_front *f}
%lex-param {rsc_front *f}
%expect 0

%code requires {
#include "front.h"
}

%code provides {
int rsc_yylex(RSC_YYSTYPE *lval, rsc_front *f);
}

%code {
/* The parse stack never grows: the grammar is left-recursive, so its depth
 * is bounded by the grammar (a handful of states), far below YYINITDEPTH.
 * Growing it would allocate behind the caller's allocator, so the hook that
 * would do it refuses (yyparse would then return 1, reported as NOMEM). */
#define yyoverflow(msg, ss, ssz, vs, vsz, n)                                  \
    ((void)(msg), (void)(ss), (void)(ssz), (void)(vs), (void)(vsz), (void)(n))

/* Syntax errors are the invalid lines; the `error EOL` action counts them. */
static void rsc_yyerror(rsc_front *f, const char *msg)
{
    (void)f;
    (void)msg;
}
}

%token USER_AGENT ALLOW DISALLOW SITEMAP OTHER JUNK EOL

%%

robotstxt
    : preamble groups
    | preamble groups agents /* a last group without rules */
    ;

/* Spec F.4: rules before the first user-agent line belong to no group. */
preamble
    : %empty
    | preamble neutral
    | preamble ALLOW EOL    { if (rsc_build_rule(f, &$2, 1, RSC_NO_GROUP)) YYNOMEM; }
    | preamble DISALLOW EOL { if (rsc_build_rule(f, &$2, 0, RSC_NO_GROUP)) YYNOMEM; }
    ;

groups
    : %empty
    | groups group
    ;

/* Spec F.3: consecutive user-agent lines form the agent list; only an
 * allow or disallow line closes it, and a later user-agent line then
 * starts the next group. So only the last group may lack rules. */
group
    : agents rules
    ;

agents
    : USER_AGENT EOL
        {
            if (rsc_build_group(f, &$1) || rsc_build_agent(f, &$1))
                YYNOMEM;
        }
    | agents USER_AGENT EOL { if (rsc_build_agent(f, &$2)) YYNOMEM; }
    | agents neutral
    ;

rules
    : ALLOW EOL             { if (rsc_build_rule(f, &$1, 1, f->cur_group)) YYNOMEM; }
    | DISALLOW EOL          { if (rsc_build_rule(f, &$1, 0, f->cur_group)) YYNOMEM; }
    | rules ALLOW EOL       { if (rsc_build_rule(f, &$2, 1, f->cur_group)) YYNOMEM; }
    | rules DISALLOW EOL    { if (rsc_build_rule(f, &$2, 0, f->cur_group)) YYNOMEM; }
    | rules neutral
    ;

/* Lines that change nothing (spec B.6, C.3, H). */
neutral
    : EOL
    | SITEMAP EOL           { if (rsc_build_sitemap(f, &$1)) YYNOMEM; }
    | OTHER EOL             { if (rsc_build_directive(f, &$1)) YYNOMEM; }
    | error EOL             { f->n_invalid++; }
    ;

%%

int rsc_front_parse(rsc_front *f)
{
    return rsc_yyparse(f);
}
