/* SPDX-License-Identifier: Apache-2.0 */
/* robotsc::store when the install has it: links (liblmdb inside) and runs. */
#include <stdio.h>
#include <string.h>

#include <robotsc/store.h>

int main(void)
{
    const char *msg = rsc_store_strerror(0);
    uint64_t h1 = rsc_store_hash("abc", 3), h2 = rsc_store_hash("abd", 3);
    printf("store: %s\n", msg ? msg : "(null)");
    return !msg || h1 == h2;
}
