package app

import "net/http"

// served is the handler App.Handler answers: the mock's whole handler,
// carrying the App it serves so that Of can find it.
type served struct {
	http.Handler
	app *App
}

// Of answers the App whose Handler h is, and nil for any other handler. It
// lets the mock's own tests (mockserver/internal/testkit) reach the services
// behind mockserver.Server's Handler without the façade exporting an
// internal type: outside the mock's module, *App cannot be named.
func Of(h http.Handler) *App {
	if s, ok := h.(served); ok {
		return s.app
	}
	return nil
}
