package mockserver

// DefaultMaxUploadBytes bounds one Send create request (the whole multipart
// body); WithMaxUploadBytes changes it.
const DefaultMaxUploadBytes int64 = 1 << 30

// sendCreatePath is the Send create endpoint under {Send}, with the
// platform's fixed version segment (docs/platform.md, "Send").
const sendCreatePath = "/api/v1/casefiles/20251022/create"

// WithMaxUploadBytes bounds the size of one Send create request (the whole
// multipart body, data and files); a larger one is answered 413 and nothing
// is kept. Values below 1 keep DefaultMaxUploadBytes (1 GiB). Uploads stream
// to a temporary directory, so memory does not grow with the limit.
func WithMaxUploadBytes(n int64) Option {
	return func(c *config) {
		if n > 0 {
			c.maxUploadBytes = n
		}
	}
}

func (s *Server) maxUploadBytes() int64 {
	if s.cfg.maxUploadBytes > 0 {
		return s.cfg.maxUploadBytes
	}
	return DefaultMaxUploadBytes
}
