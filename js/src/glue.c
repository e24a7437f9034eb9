/* SPDX-License-Identifier: Apache-2.0 */
/* The WebAssembly module's exports for the JavaScript package (js/src/core.js).
 *
 * Thin by design: it holds no matching, parsing or format logic. It owns
 * the memory JavaScript cannot (a Robots handle holds a private copy of its
 * blob, because the runtime borrows the blob it verified), and it flattens
 * the C API's structs into arrays of 32-bit words that JavaScript reads out
 * of linear memory. Every allocation is freed by an explicit call from
 * JavaScript: Robots.free() (or [Symbol.dispose], or the FinalizationRegistry
 * as a backstop), so a parse leaves the heap as it found it.
 *
 * Word arrays ("out") are little-endian uint32 in linear memory; pointers
 * are wasm32 offsets into it. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "robotsc/compiler.h"
#include "robotsc/runtime.h"

#include "glue.h"

#define EXPORT(name) __attribute__((export_name(#name), used)) name

/* ---- memory and strings -------------------------------------------------- */

void *EXPORT(rsj_alloc)(size_t n)
{
    return malloc(n ? n : 1);
}

void EXPORT(rsj_free)(void *p)
{
    free(p);
}

const char *EXPORT(rsj_version)(void)
{
    return rsc_version();
}

const char *EXPORT(rsj_strerror)(int status)
{
    return rsc_strerror(status);
}

const char *EXPORT(rsj_warning_name)(int w)
{
    return rsc_warning_name(w);
}

const char *EXPORT(rsj_warning_message)(int w)
{
    return rsc_warning_message(w);
}

int EXPORT(rsj_warning_count)(void)
{
    return RSC_W_COUNT;
}

/* ---- diagnostics ----------------------------------------------------------- */

/* Lint warnings gathered into one malloc'ed buffer of records:
 * warning, line, detail length (3 words), then the detail bytes padded to a
 * word. An allocation failure stops the gathering and is reported. */
typedef struct diag_buf {
    uint8_t *p;
    size_t len, cap;
    int failed;
} diag_buf;

static void on_diag(void *ud, const rsc_diagnostic *d)
{
    diag_buf *b = ud;
    size_t dl = d->detail ? d->detail_len : 0;
    size_t need = 12 + ((dl + 3) & ~(size_t)3);
    if (b->failed)
        return;
    if (b->len + need > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 256;
        while (cap < b->len + need)
            cap *= 2;
        uint8_t *q = realloc(b->p, cap);
        if (!q) {
            b->failed = 1;
            return;
        }
        b->p = q;
        b->cap = cap;
    }
    uint32_t w[3] = {(uint32_t)d->warning, d->line, (uint32_t)dl};
    memcpy(b->p + b->len, w, sizeof w);
    if (dl)
        memcpy(b->p + b->len + 12, d->detail, dl);
    memset(b->p + b->len + 12 + dl, 0, need - 12 - dl);
    b->len += need;
}

/* ---- what arrived ------------------------------------------------------------ */

/* rsc_classify()'s rule for bytes given to Robots.parse() (robots.txt text
 * or a blob): RSC_INPUT_TEXT, _BLOB, _DAMAGED or _BINARY. The rule is the C
 * library's, so that JavaScript refuses exactly what the CLI and Python
 * refuse. */
int EXPORT(rsj_classify)(const void *data, size_t len)
{
    return (int)rsc_classify(data, len);
}

const char *EXPORT(rsj_input_kind_what)(int kind)
{
    return rsc_input_kind_what(kind);
}

int EXPORT(rsj_max_select)(void)
{
    return RSC_MAX_SELECT;
}

/* ---- Robots handles -------------------------------------------------------- */

/* A verified program and the blob it borrows, in one allocation. */
typedef struct rsj_robots {
    rsc_program prog;
    size_t size;
    uint8_t blob[];
} rsj_robots;

/* out[0] status, out[1] offset of a rejected blob (UINT32_MAX when none),
 * out[2] the verifier's reason (a static C string, or 0). */
static rsj_robots *load_copy(const void *blob, size_t size, uint32_t *out)
{
    rsj_robots *r = malloc(sizeof *r + (size ? size : 1));
    out[1] = UINT32_MAX;
    out[2] = 0;
    if (!r) {
        out[0] = RSC_E_NOMEM;
        return NULL;
    }
    if (size)
        memcpy(r->blob, blob, size);
    r->size = size;
    rsc_load_error err = {0, NULL};
    rsc_status st = rsc_load(&r->prog, r->blob, size, &err);
    out[0] = (uint32_t)st;
    if (st != RSC_OK) {
        out[1] = (uint32_t)err.offset;
        out[2] = (uint32_t)(uintptr_t)err.what;
        free(r);
        return NULL;
    }
    return r;
}

/* Verifies a copy of blob[0..size). Returns the handle, or 0 with out[]
 * as load_copy() says. */
rsj_robots *EXPORT(rsj_load)(const void *blob, size_t size, uint32_t *out)
{
    return load_copy(blob, size, out);
}

/* Compiles body[0..len) with profile (0 google, 1 rfc) and verifies the
 * blob, as any blob is verified. out[0..2] as rsj_load; when diags is set,
 * out[3] and out[4] are the diagnostics buffer (rsj_free it) and its
 * length. */
rsj_robots *EXPORT(rsj_parse)(const void *body, size_t len, int profile, int diags,
                              uint32_t *out)
{
    rsc_compile_options opt;
    diag_buf db = {NULL, 0, 0, 0};
    memset(&opt, 0, sizeof opt);
    opt.profile = profile ? RSC_PROFILE_RFC : RSC_PROFILE_GOOGLE;
    if (diags) {
        opt.diag = on_diag;
        opt.diag_ud = &db;
    }
    out[1] = UINT32_MAX;
    out[2] = out[3] = out[4] = 0;
    rsc_blob b = {NULL, 0};
    rsc_status st = rsc_compile(body, len, &opt, &b);
    if (st == RSC_OK && db.failed) {
        rsc_blob_free(&b, &opt);
        st = RSC_E_NOMEM;
    }
    if (st != RSC_OK) {
        free(db.p);
        out[0] = (uint32_t)st;
        return NULL;
    }
    rsj_robots *r = load_copy(b.data, b.size, out);
    rsc_blob_free(&b, &opt);
    if (!r) {
        free(db.p);
        return NULL;
    }
    out[3] = (uint32_t)(uintptr_t)db.p;
    out[4] = (uint32_t)db.len;
    return r;
}

void EXPORT(rsj_robots_free)(rsj_robots *r)
{
    free(r);
}

const uint8_t *EXPORT(rsj_blob)(const rsj_robots *r)
{
    return r->blob;
}

size_t EXPORT(rsj_blob_size)(const rsj_robots *r)
{
    return r->size;
}

int EXPORT(rsj_profile)(const rsj_robots *r)
{
    return rsc_program_profile(&r->prog);
}

/* ---- selections and verdicts ---------------------------------------------- */

/* Selects for the n agents packed in buf (lens[i] bytes each). Returns a
 * malloc'ed selection (rsj_free it), or 0 with *status set. */
rsc_selection *EXPORT(rsj_select)(const rsj_robots *r, const char *buf, const uint32_t *lens,
                                  uint32_t n, int *status)
{
    rsc_bytes agents[RSC_MAX_SELECT];
    if (n == 0 || n > RSC_MAX_SELECT) {
        *status = n ? RSC_E_LIMIT : RSC_E_ARG;
        return NULL;
    }
    for (uint32_t i = 0; i < n; i++) {
        agents[i].ptr = buf;
        agents[i].len = lens[i];
        buf += lens[i];
    }
    rsc_selection *sel = malloc(sizeof *sel);
    if (!sel) {
        *status = RSC_E_NOMEM;
        return NULL;
    }
    rsc_status st = rsc_select(&r->prog, agents, n, sel);
    *status = (int)st;
    if (st != RSC_OK) {
        free(sel);
        return NULL;
    }
    /* Nothing is built here: since format 5 the compiler writes each rule
     * set's DFA into the blob (docs/DFA.md) and rsc_select() gives a
     * selection that runs it where there is one, as the C tools do. */
    return sel;
}

/* The verdict of one URL (1 allowed, 0 disallowed). When m is set:
 * m[0] decided, m[1] line, m[2] rule_allow, m[3] priority, m[4] pattern
 * (pointer into the blob), m[5] its length. */
int EXPORT(rsj_match)(const rsc_selection *sel, const char *url, size_t len, uint32_t *m)
{
    if (!m)
        return rsc_match_url(sel, url, len, NULL);
    rsc_match r;
    int ok = rsc_match_url(sel, url, len, &r);
    m[0] = (uint32_t)r.decided;
    m[1] = r.decided ? r.line : 0;
    m[2] = (uint32_t)r.rule_allow;
    m[3] = r.decided ? r.priority : 0;
    m[4] = r.decided ? (uint32_t)(uintptr_t)r.pattern : 0;
    m[5] = r.decided ? (uint32_t)r.pattern_len : 0;
    return ok;
}

/* Verdicts of n URLs packed in buf, URL i at [offs[i], offs[i+1]), into
 * out[i] (1/0). One call for a whole list. */
void EXPORT(rsj_match_many)(const rsc_selection *sel, const char *buf, const uint32_t *offs,
                            uint32_t n, uint8_t *out)
{
    for (uint32_t i = 0; i < n; i++)
        out[i] = (uint8_t)rsc_match_url(sel, buf + offs[i], offs[i + 1] - offs[i], NULL);
}

/* 1 when some agent of the selection is named by a user-agent line of the
 * file (its own group applies, not the '*' one): robots-parser's
 * isExplicitlyDisallowed() asks this. */
int EXPORT(rsj_named)(const rsc_selection *sel)
{
    return sel->named != 0;
}

int EXPORT(rsj_uniform)(const rsc_selection *sel)
{
    return rsc_selection_uniform(sel);
}

int EXPORT(rsj_crawl_delay)(const rsc_selection *sel, double *seconds)
{
    return rsc_crawl_delay(sel, seconds);
}

int EXPORT(rsj_request_rate)(const rsc_selection *sel, uint32_t *requests, double *seconds)
{
    return rsc_request_rate(sel, requests, seconds);
}

/* out[0] value pointer, out[1] its length, out[2] line. */
int EXPORT(rsj_group_directive)(const rsc_selection *sel, const char *key, uint32_t *out)
{
    rsc_bytes v = {NULL, 0};
    uint32_t line = 0;
    if (!rsc_group_directive(sel, key, &v, &line))
        return 0;
    out[0] = (uint32_t)(uintptr_t)v.ptr;
    out[1] = (uint32_t)v.len;
    out[2] = line;
    return 1;
}

/* ---- records of the file ---------------------------------------------------- */

size_t EXPORT(rsj_sitemap_count)(const rsj_robots *r)
{
    return rsc_sitemap_count(&r->prog);
}

/* out[0] line, out[1] URL pointer, out[2] its length. */
int EXPORT(rsj_sitemap_get)(const rsj_robots *r, size_t i, uint32_t *out)
{
    rsc_bytes u = {NULL, 0};
    if (!rsc_sitemap_get(&r->prog, i, &out[0], &u))
        return 0;
    out[1] = (uint32_t)(uintptr_t)u.ptr;
    out[2] = (uint32_t)u.len;
    return 1;
}

size_t EXPORT(rsj_directive_count)(const rsj_robots *r)
{
    return rsc_directive_count(&r->prog);
}

/* out[0] line, out[1..2] key, out[3..4] value (pointer, length). */
int EXPORT(rsj_directive_get)(const rsj_robots *r, size_t i, uint32_t *out)
{
    rsc_bytes k = {NULL, 0}, v = {NULL, 0};
    if (!rsc_directive_get(&r->prog, i, &out[0], &k, &v))
        return 0;
    out[1] = (uint32_t)(uintptr_t)k.ptr;
    out[2] = (uint32_t)k.len;
    out[3] = (uint32_t)(uintptr_t)v.ptr;
    out[4] = (uint32_t)v.len;
    return 1;
}

/* ---- agents ------------------------------------------------------------------ */

/* rsc_agent_token(): out[0] token offset in ua, out[1] its length,
 * out[2] changed. Returns the status. */
int EXPORT(rsj_agent_token)(const char *ua, size_t len, uint32_t *out)
{
    rsc_bytes t = {NULL, 0};
    int changed = 0;
    rsc_status st = rsc_agent_token(ua, len, &t, &changed);
    if (st == RSC_OK) {
        out[0] = (uint32_t)(t.ptr - ua);
        out[1] = (uint32_t)t.len;
        out[2] = (uint32_t)changed;
    }
    return (int)st;
}

/* Whether a crawler name can select a group of its own (non-empty,
 * [A-Za-z_-] only): any other name only ever gets the '*' groups. */
int EXPORT(rsj_is_valid_agent)(const char *agent, size_t len)
{
    return rsc_is_valid_agent(agent, len);
}

/* ---- lint ------------------------------------------------------------------------ */

/* Parses body and reports its lint warnings (as `robotsc lint`: a file that
 * looks binary gets that one warning) and, when records is set, every
 * line's lint record (the conformance format), one a line, after the
 * warnings: out[0] status, out[1..2] the warnings buffer, out[3..4] the
 * records text (both rsj_free'd by the caller). */
void EXPORT(rsj_lint)(const void *body, size_t len, int profile, int records, uint32_t *out)
{
    rsc_parse_options po;
    rsc_ir *ir = NULL;
    diag_buf db = {NULL, 0, 0, 0};
    memset(&po, 0, sizeof po);
    po.profile = profile ? RSC_PROFILE_RFC : RSC_PROFILE_GOOGLE;
    memset(out, 0, 5 * sizeof *out);
    rsc_status st = rsc_parse(body, len, &po, &ir);
    if (st != RSC_OK) {
        out[0] = (uint32_t)st;
        return;
    }
    if (ir->looks_binary) {
        rsc_diagnostic d = {RSC_W_NOT_ROBOTS_BINARY, 0, NULL, 0};
        on_diag(&db, &d);
    } else {
        rsc_lint(ir, on_diag, &db);
    }
    char *text = NULL;
    size_t tlen = 0;
    if (records && !db.failed) {
        size_t cap = 0;
        for (size_t i = 0; i < ir->n_lines; i++)
            cap += rsc_ir_record(ir, i, NULL, 0) + 1;
        text = malloc(cap + 1);
        if (text) {
            for (size_t i = 0; i < ir->n_lines; i++) {
                tlen += rsc_ir_record(ir, i, text + tlen, cap + 1 - tlen);
                text[tlen++] = '\n';
            }
        }
    }
    rsc_ir_free(ir);
    if (db.failed || (records && !text)) {
        free(db.p);
        free(text);
        out[0] = RSC_E_NOMEM;
        return;
    }
    out[0] = RSC_OK;
    out[1] = (uint32_t)(uintptr_t)db.p;
    out[2] = (uint32_t)db.len;
    out[3] = (uint32_t)(uintptr_t)text;
    out[4] = (uint32_t)tlen;
}
