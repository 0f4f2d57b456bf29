package main

import (
	"fmt"
	"regexp"
	"strings"
)

// upstreamHeader names the replica that answered, added to the derived
// configuration only: the harness uses it to tell which replica answered a
// request and its retry.
const upstreamHeader = "X-Mjscan-Upstream"

var upstreamServer = regexp.MustCompile(`(?m)^(\s*)server 127\.0\.0\.1:\d+((?: [^;\n]*)?);\n`)

// deriveNginx turns deploy/nginx.conf into the harness's configuration:
// the same file with only the addresses changed (the upstream's servers
// are the replicas given, the server listens on listen) and the upstream
// header added. Everything else (routing, limits, rate limits, retries,
// the problems nginx answers itself) is the shipped file's. It fails when
// the file no longer has the shape it expects, so the harness never tests
// something else than what is shipped.
func deriveNginx(shipped string, listen string, replicas []string) (string, error) {
	servers := upstreamServer.FindAllStringSubmatchIndex(shipped, -1)
	if len(servers) == 0 {
		return "", fmt.Errorf("deploy/nginx.conf: no upstream server lines (server 127.0.0.1:PORT ...;) to replace")
	}
	first := upstreamServer.FindStringSubmatch(shipped)
	indent, params := first[1], first[2]
	var lines strings.Builder
	for _, r := range replicas {
		fmt.Fprintf(&lines, "%sserver %s%s;\n", indent, r, params)
	}
	var out strings.Builder
	last := 0
	for i, m := range servers {
		out.WriteString(shipped[last:m[0]])
		if i == 0 {
			out.WriteString(lines.String())
		}
		last = m[1]
	}
	out.WriteString(shipped[last:])
	conf := out.String()

	for _, r := range []struct{ old, new string }{
		{"    listen 80;\n", "    listen " + listen + ";\n"},
		{"    listen [::]:80;\n", ""},
		{"    add_header X-Request-ID $request_id always;\n",
			"    add_header X-Request-ID $request_id always;\n    add_header " + upstreamHeader + " $upstream_addr always; # the harness's only addition\n"},
	} {
		if n := strings.Count(conf, r.old); n != 1 {
			return "", fmt.Errorf("deploy/nginx.conf: expected the line %q once, found it %d times", strings.TrimSpace(r.old), n)
		}
		conf = strings.Replace(conf, r.old, r.new, 1)
	}
	return conf, nil
}
