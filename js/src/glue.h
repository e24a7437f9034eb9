/* SPDX-License-Identifier: Apache-2.0 */
/* The exports of js/src/glue.c: what js/src/core.js calls (glue.c says
 * what each one does). */
#ifndef ROBOTSC_JS_GLUE_H
#define ROBOTSC_JS_GLUE_H

#include <stddef.h>
#include <stdint.h>

#include "robotsc/runtime.h"

typedef struct rsj_robots rsj_robots;

void *rsj_alloc(size_t n);
void rsj_free(void *p);
const char *rsj_version(void);
const char *rsj_strerror(int status);
const char *rsj_warning_name(int w);
const char *rsj_warning_message(int w);
int rsj_warning_count(void);
int rsj_classify(const void *data, size_t len);
const char *rsj_input_kind_what(int kind);
int rsj_max_select(void);
rsj_robots *rsj_load(const void *blob, size_t size, uint32_t *out);
rsj_robots *rsj_parse(const void *body, size_t len, int profile, int diags,
                              uint32_t *out);
void rsj_robots_free(rsj_robots *r);
const uint8_t *rsj_blob(const rsj_robots *r);
size_t rsj_blob_size(const rsj_robots *r);
int rsj_profile(const rsj_robots *r);
rsc_selection *rsj_select(const rsj_robots *r, const char *buf, const uint32_t *lens,
                                  uint32_t n, int *status);
int rsj_match(const rsc_selection *sel, const char *url, size_t len, uint32_t *m);
void rsj_match_many(const rsc_selection *sel, const char *buf, const uint32_t *offs,
                            uint32_t n, uint8_t *out);
int rsj_named(const rsc_selection *sel);
int rsj_uniform(const rsc_selection *sel);
int rsj_crawl_delay(const rsc_selection *sel, double *seconds);
int rsj_request_rate(const rsc_selection *sel, uint32_t *requests, double *seconds);
int rsj_group_directive(const rsc_selection *sel, const char *key, uint32_t *out);
size_t rsj_sitemap_count(const rsj_robots *r);
int rsj_sitemap_get(const rsj_robots *r, size_t i, uint32_t *out);
size_t rsj_directive_count(const rsj_robots *r);
int rsj_directive_get(const rsj_robots *r, size_t i, uint32_t *out);
int rsj_agent_token(const char *ua, size_t len, uint32_t *out);
int rsj_is_valid_agent(const char *agent, size_t len);
void rsj_lint(const void *body, size_t len, int profile, int records, uint32_t *out);

#endif
