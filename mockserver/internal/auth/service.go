// Package auth is the mock's accounts and auth service, the one the SDK's
// package auth takes its tokens from: customers and their API users, the
// API Keys Grant token endpoint, access tokens on the mock clock, and the
// check of a request's token where its service takes it.
package auth

import "github.com/signkit/signkit-go/mockserver/internal/clock"

// Config connects the service to the rest of the server.
type Config struct {
	// Clock dates tokens: they expire after 10 minutes of mock time.
	Clock *clock.Clock
	// MaxBodyBytes bounds a token request.
	MaxBodyBytes int64
	// Admin is the default customer's admin user, whom the service starts
	// with and returns to on Reset; a user added without a customer joins
	// Admin's.
	Admin User
}

// Service holds the users and the tokens. Its methods are safe for
// concurrent use.
type Service struct {
	cfg    Config
	users  *store
	tokens *tokenStore
}

// New answers a service with the default customer and its admin user.
func New(cfg Config) *Service {
	return &Service{cfg: cfg, users: newStore(cfg.Admin), tokens: newTokenStore()}
}

// Reset returns to the default customer and its admin user, and forgets
// every token.
func (svc *Service) Reset() {
	svc.users.reset()
	svc.tokens.reset()
}

// Add creates a user with fresh random credentials; a spec that names no
// user or an unknown customer is a 422.
func (svc *Service) Add(spec Spec) (*User, error) { return svc.users.add(spec) }

// ByID answers the user with that id, or nil.
func (svc *Service) ByID(id int64) *User { return svc.users.byID(id) }

// Admins answers the admin users of a customer, by id.
func (svc *Service) Admins(customerID int64) []*User { return svc.users.admins(customerID) }
