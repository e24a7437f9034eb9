/* rsc_url_path() against the GetPathParamsQuery rows of the conformance
 * helper files (spec G). Arguments: the TSV files. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "robotsc/runtime.h"
#include "testutil.h"

int main(int argc, char **argv)
{
    int passed = 0, rows = 0;
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        if (!f) {
            printf("skip: %s not found\n", argv[i]);
            return 77;
        }
        char *line;
        while ((line = tu_getline(f)) != NULL) {
            char *fl[4];
            if (tu_split_tabs(line, fl, 4) == 4 && strcmp(fl[1], "GetPathParamsQuery") == 0) {
                size_t ulen, elen, off, plen;
                int slash;
                char *u = tu_unescape(fl[2], &ulen), *e = tu_unescape(fl[3], &elen);
                rsc_url_path(u, ulen, &off, &plen, &slash);
                char *got = malloc(plen + 2);
                size_t glen = 0;
                if (slash)
                    got[glen++] = '/';
                memcpy(got + glen, u + off, plen);
                glen += plen;
                rows++;
                TU_CHECK(glen == elen && memcmp(got, e, elen) == 0, "%s: got '%.*s' want '%s'",
                         fl[0], (int)glen, got, e);
                passed += glen == elen && memcmp(got, e, elen) == 0;
                free(u), free(e), free(got);
            }
            free(line);
        }
        fclose(f);
    }
    TU_CHECK(rows >= 30, "only %d GetPathParamsQuery rows", rows);
    return tu_report("GetPathParamsQuery", passed);
}
