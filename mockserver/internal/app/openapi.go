package app

import (
	"maps"
	"net/http"
	"sync"

	"github.com/signkit/signkit-go/mockserver/internal/apidoc"
	"github.com/signkit/signkit-go/mockserver/internal/auth"
	"github.com/signkit/signkit-go/mockserver/internal/faults"
	"github.com/signkit/signkit-go/mockserver/internal/forms"
	"github.com/signkit/signkit-go/mockserver/internal/journal"
	"github.com/signkit/signkit-go/mockserver/internal/send"
	"github.com/signkit/signkit-go/mockserver/internal/signing"
	"github.com/signkit/signkit-go/mockserver/internal/webhooks"
)

// Shapes answers every JSON shape the OpenAPI description reads from the
// services' types.
func Shapes() apidoc.Shapes {
	shapes := apidoc.Shapes{"Fault": faults.Fault{}, "FaultSpec": faults.Fault{}, "Request": journal.Entry{}, "Stats": Stats{}}
	for _, m := range []map[string]any{auth.APIShapes(), forms.APIShapes(), send.APIShapes(),
		signing.APIShapes(), signing.SigningRequestShapes(), webhooks.APIShapes()} {
		maps.Copy(shapes, m)
	}
	return shapes
}

// Input answers what the OpenAPI description reads from the services:
// their shapes, what it says of them beyond their Go types, and the event
// types with their bodies.
func Input() apidoc.Input {
	in := apidoc.Input{Shapes: Shapes(), Refine: map[string]map[string]apidoc.Schema{}}
	for _, m := range []map[string]map[string]map[string]any{signing.APIRefinements(), webhooks.APIRefinements(),
		send.APIRefinements(),
		signing.UnitRefinements(), faults.APIRefinements(), forms.APIRefinements()} {
		for shape, props := range m {
			if in.Refine[shape] == nil {
				in.Refine[shape] = map[string]apidoc.Schema{}
			}
			for prop, keywords := range props {
				in.Refine[shape][prop] = keywords
			}
		}
	}
	for _, e := range signing.EventShapes() {
		in.Events = append(in.Events, apidoc.Event{Type: e.Type, Topic: e.Topic, EventType: e.EventType,
			Payload: e.Payload, Status: e.Status, Description: e.Description})
	}
	return in
}

// newOpenAPI answers a function that builds the OpenAPI description once,
// on first use, and then answers it again.
func newOpenAPI() func() ([]byte, error) {
	return sync.OnceValues(func() ([]byte, error) { return apidoc.Build(Input()) })
}

// openAPI is GET /mock/openapi.json.
func (c control) openAPI(w http.ResponseWriter, _ *http.Request) error {
	doc, err := c.a.OpenAPI()
	if err != nil {
		return err // a 500: the description is broken, which a test would have caught
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	_, _ = w.Write(doc)
	return nil
}
