package mockserver

// initPublicPages registers the public form pages (no token).
func (s *Server) initPublicPages() {}
