// Package vendorcheck runs the platform vendor's own clients against the mock
// server: the vendor's Postman collections through newman, and the vendor's
// connector swagger as JSON schemas for the mock's answers. Nothing of the
// vendor's is copied into the repository: everything is read at test time from
// the vendor directory beside the checkout (../shared/vendor). See
// https://github.com/signkit/signkit-go/blob/main/docs/platform.md for the wire
// facts and
// https://github.com/signkit/signkit-go/blob/main/docs/vendor-exceptions.md for
// the assertions that are known not to pass offline.
package vendorcheck

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
)

// ErrNoSuchItem is returned by Collection.Select when a named request or
// folder is not in the collection.
var ErrNoSuchItem = errors.New("vendorcheck: no such item in the collection")

// Collection is a Postman collection (format v2.1) held as generic JSON, so
// that patching it keeps every property newman reads.
type Collection struct {
	raw map[string]any
}

// LoadCollection reads a Postman collection file.
func LoadCollection(path string) (*Collection, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("vendorcheck: read collection: %w", err)
	}
	return ParseCollection(b)
}

// ParseCollection decodes a Postman collection.
func ParseCollection(b []byte) (*Collection, error) {
	var raw map[string]any
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, fmt.Errorf("vendorcheck: decode collection: %w", err)
	}
	if _, ok := raw["item"].([]any); !ok {
		return nil, fmt.Errorf("vendorcheck: decode collection: no item list")
	}
	return &Collection{raw: raw}, nil
}

// Name is the collection's info.name.
func (c *Collection) Name() string {
	info, _ := c.raw["info"].(map[string]any)
	name, _ := info["name"].(string)
	return name
}

// Variables gives the collection variables' values as strings (a number a
// script stored comes back in its JSON spelling).
func (c *Collection) Variables() map[string]string {
	out := map[string]string{}
	for _, v := range c.variables() {
		key, _ := v["key"].(string)
		if key != "" {
			out[key] = scalarString(v["value"])
		}
	}
	return out
}

// HasVariable says whether the collection declares the variable key.
func (c *Collection) HasVariable(key string) bool {
	_, ok := c.Variables()[key]
	return ok
}

// SetVariables sets the values of the collection variables named in vars,
// adding those the collection does not declare.
func (c *Collection) SetVariables(vars map[string]string) {
	list := c.variables()
	seen := map[string]bool{}
	for _, v := range list {
		key, _ := v["key"].(string)
		if val, ok := vars[key]; ok {
			v["value"] = val
			seen[key] = true
		}
	}
	keys := make([]string, 0, len(vars))
	for k := range vars {
		if !seen[k] {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	out := make([]any, 0, len(list)+len(keys))
	for _, v := range list {
		out = append(out, v)
	}
	for _, k := range keys {
		out = append(out, map[string]any{"key": k, "value": vars[k], "type": "string"})
	}
	c.raw["variable"] = out
}

// AttachFile makes every file part of a form-data body whose src is empty
// point at path, as a person picks a file in Postman. It returns how many
// parts it filled.
func (c *Collection) AttachFile(path string) int {
	n := 0
	walkRequests(c.raw["item"], func(item map[string]any) {
		req, _ := item["request"].(map[string]any)
		body, _ := req["body"].(map[string]any)
		parts, _ := body["formdata"].([]any)
		for _, p := range parts {
			part, _ := p.(map[string]any)
			if part["type"] != "file" || !emptySrc(part["src"]) {
				continue
			}
			part["src"] = path
			n++
		}
	})
	return n
}

// exportPrefix marks the globals that carry the collection variables out of
// a newman run (newman's --export-collection keeps the variables' first
// values).
const exportPrefix = "vendorcheck:"

// exportScript copies every collection variable to a global: globals rank
// below collection variables, so the copies never change what a request
// resolves, and --export-globals writes them out.
var exportScript = []any{
	"// vendorcheck: copy the collection variables out of the run (not the vendor's).",
	"const vars = pm.collectionVariables.toObject();",
	"Object.keys(vars).forEach(function (k) { pm.globals.set('" + exportPrefix + "' + k, vars[k]); });",
}

// AddVariableExport appends to every request a second test script that
// copies the collection variables to globals, after the vendor's own test
// script has run (and also when that script throws).
func (c *Collection) AddVariableExport() {
	walkRequests(c.raw["item"], func(item map[string]any) {
		events, _ := item["event"].([]any)
		item["event"] = append(events, map[string]any{
			"listen": "test",
			"script": map[string]any{"type": "text/javascript", "exec": exportScript},
		})
	})
}

// RequestNames lists the collection's requests in run order.
func (c *Collection) RequestNames() []string {
	var names []string
	walkRequests(c.raw["item"], func(item map[string]any) {
		name, _ := item["name"].(string)
		names = append(names, name)
	})
	return names
}

// Select returns a copy of the collection that holds only the named requests
// and folders (a folder with everything in it), in the collection's order,
// with the folders around them. Unknown names are an error matching
// ErrNoSuchItem.
func (c *Collection) Select(names ...string) (*Collection, error) {
	cp, err := c.clone()
	if err != nil {
		return nil, err
	}
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	found := map[string]bool{}
	cp.raw["item"] = selectItems(cp.raw["item"], want, found)
	for _, n := range names {
		if !found[n] {
			return nil, fmt.Errorf("%w: %q in %q", ErrNoSuchItem, n, c.Name())
		}
	}
	return cp, nil
}

// Marshal encodes the collection.
func (c *Collection) Marshal() ([]byte, error) {
	b, err := json.MarshalIndent(c.raw, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("vendorcheck: encode collection: %w", err)
	}
	return b, nil
}

func (c *Collection) clone() (*Collection, error) {
	b, err := json.Marshal(c.raw)
	if err != nil {
		return nil, fmt.Errorf("vendorcheck: copy collection: %w", err)
	}
	return ParseCollection(b)
}

func (c *Collection) variables() []map[string]any {
	list, _ := c.raw["variable"].([]any)
	out := make([]map[string]any, 0, len(list))
	for _, v := range list {
		if m, ok := v.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

// selectItems keeps the wanted items of list; a folder that is not wanted
// itself stays when something inside it is.
func selectItems(list any, want, found map[string]bool) []any {
	items, _ := list.([]any)
	var out []any
	for _, it := range items {
		item, ok := it.(map[string]any)
		if !ok {
			continue
		}
		name, _ := item["name"].(string)
		if want[name] {
			found[name] = true
			out = append(out, item)
			continue
		}
		if children, isFolder := item["item"]; isFolder {
			if kept := selectItems(children, want, found); len(kept) > 0 {
				item["item"] = kept
				out = append(out, item)
			}
		}
	}
	return out
}

// walkRequests calls fn for every request item, depth first in order.
func walkRequests(list any, fn func(map[string]any)) {
	items, _ := list.([]any)
	for _, it := range items {
		item, ok := it.(map[string]any)
		if !ok {
			continue
		}
		if children, isFolder := item["item"]; isFolder {
			walkRequests(children, fn)
			continue
		}
		fn(item)
	}
}

func emptySrc(src any) bool {
	switch s := src.(type) {
	case nil:
		return true
	case string:
		return s == ""
	case []any:
		return len(s) == 0
	}
	return false
}

// scalarString spells a JSON scalar as a string: strings as they are,
// numbers and booleans in JSON, null as "".
func scalarString(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
