package mockserver

import "sync"

// formStore is the forms service's state.
type formStore struct {
	mu sync.Mutex
}

func newFormStore() *formStore { return &formStore{} }

func (f *formStore) reset() {}

// initForms sets up the forms service.
func (s *Server) initForms() {
	s.forms = newFormStore()
	s.onReset(s.forms.reset)
}

// initPublicPages registers the public form pages.
func (s *Server) initPublicPages() {}
