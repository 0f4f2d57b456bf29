// Command kubeschema turns Kubernetes' OpenAPI v2 description
// (api/openapi-spec/swagger.json of the k8s.io/kubernetes module, fetched
// from the Go module proxy) into the JSON schemas kubeconform validates
// manifests with, so that make deploy-check needs no network beyond the
// module proxy:
//
//	go run ./deploy/kubeschema -swagger swagger.json -out DIR
//	kubeconform -schema-location 'DIR/{{ .ResourceKind }}{{ .KindSuffix }}.json' ...
//
// It writes DIR/_definitions.json (every definition) and one file per kind
// and API version, named as kubeconform looks it up (deployment-apps-v1.json,
// service-v1.json), which refers to the definitions file. The schemas are
// strict, as kubeconform's own -strict ones are: an object with properties
// allows no others, so a misspelt field fails. An int-or-string accepts
// either, a quantity a string or a number, as the API server does; kind
// and apiVersion must be the ones the file is for.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

func main() {
	swagger := flag.String("swagger", "", "Kubernetes' swagger.json")
	out := flag.String("out", "", "folder to write the schemas to")
	flag.Parse()
	if *swagger == "" || *out == "" {
		fmt.Fprintln(os.Stderr, "usage: kubeschema -swagger swagger.json -out DIR")
		os.Exit(2)
	}
	n, err := run(*swagger, *out)
	if err != nil {
		fmt.Fprintln(os.Stderr, "kubeschema:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "kubeschema: %d kinds written to %s\n", n, *out)
}

type gvk struct {
	Group   string `json:"group"`
	Version string `json:"version"`
	Kind    string `json:"kind"`
}

func run(swaggerPath, out string) (int, error) {
	raw, err := os.ReadFile(swaggerPath)
	if err != nil {
		return 0, err
	}
	var doc struct {
		Definitions map[string]map[string]any `json:"definitions"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return 0, fmt.Errorf("%s: %w", swaggerPath, err)
	}
	if len(doc.Definitions) == 0 {
		return 0, fmt.Errorf("%s has no definitions", swaggerPath)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return 0, err
	}
	defs := map[string]any{}
	for name, d := range doc.Definitions {
		defs[name] = convert(d, "#/definitions/")
	}
	if err := writeJSON(filepath.Join(out, "_definitions.json"), map[string]any{"definitions": defs}); err != nil {
		return 0, err
	}
	names := make([]string, 0, len(doc.Definitions))
	for name := range doc.Definitions {
		names = append(names, name)
	}
	sort.Strings(names)
	written := map[string]string{}
	for _, name := range names {
		d := doc.Definitions[name]
		kinds, err := kindsOf(d)
		if err != nil {
			return 0, fmt.Errorf("%s: %w", name, err)
		}
		for _, k := range kinds {
			apiVersion := k.Version
			if k.Group != "" {
				apiVersion = k.Group + "/" + k.Version
			}
			file := strings.ToLower(k.Kind) + kindSuffix(apiVersion) + ".json"
			if prev, ok := written[file]; ok {
				// Two groups whose names start alike (the suffix keeps
				// only the group's first word): keep the first, as the
				// published schemas do.
				fmt.Fprintf(os.Stderr, "kubeschema: %s also names %s (kept %s)\n", file, name, prev)
				continue
			}
			s := convert(d, "_definitions.json#/definitions/").(map[string]any)
			props, _ := s["properties"].(map[string]any)
			if props == nil {
				return 0, fmt.Errorf("%s (%s) has no properties", name, k.Kind)
			}
			props["kind"] = map[string]any{"type": "string", "enum": []any{k.Kind}}
			props["apiVersion"] = map[string]any{"type": "string", "enum": []any{apiVersion}}
			s["$schema"] = "http://json-schema.org/draft-04/schema#"
			if err := writeJSON(filepath.Join(out, file), s); err != nil {
				return 0, err
			}
			written[file] = name
		}
	}
	if len(written) == 0 {
		return 0, errors.New("no definition names a kind (x-kubernetes-group-version-kind)")
	}
	return len(written), nil
}

// kindSuffix is kubeconform's {{ .KindSuffix }} for an apiVersion: the
// group's first word and the version ("apps/v1" -> "-apps-v1", "v1" ->
// "-v1", "networking.k8s.io/v1" -> "-networking-v1").
func kindSuffix(apiVersion string) string {
	groupParts := strings.Split(apiVersion, "/")
	versionParts := strings.Split(groupParts[0], ".")
	s := "-" + strings.ToLower(versionParts[0])
	if len(groupParts) > 1 {
		s += "-" + strings.ToLower(groupParts[1])
	}
	return s
}

func kindsOf(d map[string]any) ([]gvk, error) {
	v, ok := d["x-kubernetes-group-version-kind"]
	if !ok {
		return nil, nil
	}
	b, _ := json.Marshal(v)
	var out []gvk
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, fmt.Errorf("x-kubernetes-group-version-kind: %w", err)
	}
	return out, nil
}

// Definitions the API server reads more loosely than their declared type.
const (
	intOrString = "io.k8s.apimachinery.pkg.util.intstr.IntOrString"
	quantity    = "io.k8s.apimachinery.pkg.api.resource.Quantity"
)

// convert copies an OpenAPI v2 schema as a draft-4 JSON schema: $refs
// rewritten to refPrefix, objects strict, int-or-string and quantities as
// the server takes them.
func convert(v any, refPrefix string) any {
	switch x := v.(type) {
	case map[string]any:
		if ref, ok := x["$ref"].(string); ok {
			name := strings.TrimPrefix(ref, "#/definitions/")
			switch name {
			case intOrString:
				return map[string]any{"oneOf": []any{map[string]any{"type": "string"}, map[string]any{"type": "integer"}}}
			case quantity:
				return map[string]any{"oneOf": []any{map[string]any{"type": "string"}, map[string]any{"type": "number"}}}
			}
			return map[string]any{"$ref": refPrefix + name}
		}
		if x["format"] == "int-or-string" {
			return map[string]any{"oneOf": []any{map[string]any{"type": "string"}, map[string]any{"type": "integer"}}}
		}
		out := map[string]any{}
		for k, e := range x {
			switch {
			case strings.HasPrefix(k, "x-kubernetes-"), k == "description":
				// Annotations only; dropping them keeps the files small.
			case k == "properties":
				props := map[string]any{}
				for name, p := range e.(map[string]any) {
					props[name] = convert(p, refPrefix)
				}
				out[k] = props
			default:
				out[k] = convert(e, refPrefix)
			}
		}
		if _, hasProps := x["properties"]; hasProps {
			if _, set := x["additionalProperties"]; !set {
				out["additionalProperties"] = false
			}
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = convert(e, refPrefix)
		}
		return out
	}
	return v
}

func writeJSON(path string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}
