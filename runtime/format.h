/* The blob format's constants: the single edge from compile time to run
 * time. docs/FORMAT.md is the specification; keep the two in step ("grep
 * FORMAT" when changing either). Only the runtime and the compiler's emitter
 * include this file. */
#ifndef ROBOTSC_FORMAT_H
#define ROBOTSC_FORMAT_H

#define RSC_MAGIC "\x89RSC\r\n\x1a\n"
#define RSC_MAGIC_LEN 8

#define RSC_HEADER_SIZE 32u
#define RSC_SECTION_ENTRY_SIZE 8u
#define RSC_MAX_SECTIONS 32u

/* Header offsets. */
#define RSC_H_MAJOR 8u
#define RSC_H_MINOR 9u
#define RSC_H_FLAGS 10u
#define RSC_H_TOTAL 12u
#define RSC_H_NSECT 16u
#define RSC_H_RESERVED 20u
#define RSC_H_CHECK_A 24u
#define RSC_H_CHECK_B 28u

#define RSC_FLAG_PROFILE_RFC 0x0001u
#define RSC_FLAGS_KNOWN 0x0001u

#define RSC_SECTION_SKIPPABLE 0x0001u

enum rsc_section_id {
    RSC_SEC_STRINGS = 1,
    RSC_SEC_RULES = 2,
    RSC_SEC_AUTOMATA = 3,
    RSC_SEC_SETS = 4,
    RSC_SEC_AGENTS = 5,
    RSC_SEC_GROUPS = 6,
    RSC_SEC_SITEMAPS = 7,
    RSC_SEC_DIRECTIVES = 8,
    RSC_SEC_LAST_KNOWN = 8
};

#define RSC_NONE 0xFFFFFFFFu

#define RSC_RULE_ALLOW 0x80000000u
#define RSC_RULE_LINE_MASK 0x7FFFFFFFu
#define RSC_RULE_ENTRY_SIZE 16u

/* Automaton header. */
#define RSC_AUT_HEADER_SIZE 20u
#define RSC_AUT_HAS_CLASS_MAP 0x1u
#define RSC_MAX_STATES (1u << 24)

/* State word 0. */
#define RSC_OP_MASK 0x0Fu
#define RSC_ST_HAS_ACCEPT 0x10u
#define RSC_ST_HAS_END 0x20u
#define RSC_ST_RESERVED 0xC0u
#define RSC_ST_INDEX_SHIFT 8

enum rsc_op { RSC_OP_LIT = 1, RSC_OP_SPARSE = 2, RSC_OP_TABLE = 3 };

#define RSC_MAX_LIT 65535u

#endif
