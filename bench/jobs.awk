# SPDX-License-Identifier: Apache-2.0
# bench/jobs.awk: the real URL lists to benchmark, from the corpus's
# urls-index.tsv, as "name<TAB>robots.txt<TAB>urls" lines: the robots.txt
# of the same crawl (2019) when there is one, else the site's file; a list
# with neither (in.bongacams.com: its robots.txt was an HTML page) is left
# out. Variables: c, the corpus directory; n, at most that many lists
# (default: all). Used by bench/run.sh and bench/floors/run.sh.
#   awk -F'\t' -v c=CORPUS [-v n=N] -f bench/jobs.awk CORPUS/urls-index.tsv
NR > 1 && (n == "" || NR <= n + 1) {
    r = $5 != "" && $5 != "-" ? $5 : $6
    if (r == "" || r == "-")
        next
    print $2 "\t" c "/" r "\t" c "/" $1
}
