package wire

import (
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
)

// OnlyParams answers a 400 naming every query parameter of r that is not one of
// names, or nil when there is none. The mock's journals under /mock/ take it,
// so that a misspelt or guessed filter (?eventid=, ?since=) is refused instead
// of listing everything as if no filter had been given
// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#journals).
func OnlyParams(r *http.Request, names ...string) error {
	var unknown []string
	for _, k := range slices.Sorted(maps.Keys(r.URL.Query())) {
		if !slices.Contains(names, k) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	takes := "takes no query parameter"
	if len(names) > 0 {
		takes = "takes " + strings.Join(names, ", ")
	}
	e := BadRequest("unknown query parameter %q: %s %s %s", unknown[0], r.Method, r.URL.Path, takes)
	if len(unknown) > 1 {
		e.Message = fmt.Sprintf("unknown query parameters %s: %s %s %s", strings.Join(unknown, ", "), r.Method, r.URL.Path, takes)
	}
	for _, k := range unknown {
		e.Details = append(e.Details, FieldError{Field: k, Message: "is not a query parameter of this route; it " + takes})
	}
	return e
}
