/* SPDX-License-Identifier: Apache-2.0 */
/* robotsc::store when the install has it: links (liblmdb inside), creates a
 * store at argv[1] and closes it (rsc_store_open/close need liblmdb and the
 * crawl library's key rules at link time). */
#include <stdio.h>
#include <string.h>

#include <robotsc/store.h>

int main(int argc, char **argv)
{
    const char *msg = rsc_store_strerror(0);
    uint64_t h1 = rsc_store_hash("abc", 3), h2 = rsc_store_hash("abd", 3);
    printf("store: %s\n", msg ? msg : "(null)");
    if (!msg || h1 == h2 || argc < 2)
        return 1;
    rsc_store *st = NULL;
    rsc_store_status s = rsc_store_open(argv[1], NULL, &st);
    if (s != RSC_STORE_OK) {
        fprintf(stderr, "rsc_store_open(%s): %s %s\n", argv[1], rsc_store_strerror(s),
                rsc_store_last_error(NULL));
        return 1;
    }
    int valid = rsc_store_key_valid("https://example.com", 19);
    rsc_store_close(st);
    return valid ? 0 : 1;
}
