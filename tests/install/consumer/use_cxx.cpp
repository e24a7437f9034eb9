/* SPDX-License-Identifier: Apache-2.0 */
// The public headers from C++: every header, compile and match.
#include <cstring>
#include <iostream>
#include <string>

#include <robotsc/compiler.h>
#include <robotsc/crawl.h>
#include <robotsc/ir.h>
#include <robotsc/runtime.h>

int main()
{
    const std::string txt = "User-agent: *\nDisallow: /private\n";
    rsc_blob b;
    rsc_program prog;
    rsc_selection sel;
    rsc_bytes agent = {"cxxbot", 6};
    if (rsc_compile(txt.data(), txt.size(), nullptr, &b) != RSC_OK ||
        rsc_load(&prog, b.data, b.size, nullptr) != RSC_OK || rsc_select(&prog, &agent, 1, &sel) != RSC_OK)
        return 2;
    int a = rsc_match_path(&sel, "/private/1", 10, nullptr);
    int c = rsc_match_path(&sel, "/open", 5, nullptr);
    std::cout << "c++: " << rsc_version() << " /private/1 " << a << " /open " << c << "\n";
    rsc_blob_free(&b, nullptr);
    return a != 0 || c != 1 || std::strcmp(rsc_version(), RSC_VERSION_STRING) != 0;
}
