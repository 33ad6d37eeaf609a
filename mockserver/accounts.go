package mockserver

import (
	"crypto/subtle"
	"fmt"
	"sync"

	"github.com/signkit/signkit-go/mockserver/internal/ids"
	"github.com/signkit/signkit-go/mockserver/internal/wire"

	"github.com/signkit/signkit-go/auth"
)

// The default account every Server starts with (and returns to on reset).
const (
	// DefaultCustomerID is the id of the default customer.
	DefaultCustomerID int64 = 1
	// DefaultUserID is the id of the default customer's admin user.
	DefaultUserID int64 = 1
	// DefaultClientID, DefaultClientSecret, DefaultAPIKey and DefaultAPISecret
	// are the credentials of the default admin user.
	DefaultClientID     = "mock-client-id"
	DefaultClientSecret = "mock-client-secret"
	DefaultAPIKey       = "mock-api-key"
	DefaultAPISecret    = "mock-api-secret"
)

// user is an API user of a customer, with its own OAuth client and API key.
type user struct {
	ID         int64
	CustomerID int64
	Name       string
	Email      string
	Admin      bool
	SuperUser  bool // a super API user sees every case file of the customer
	Creds      auth.Credentials
}

// UserSpec describes a user to add with AddUser (or POST /mock/users).
type UserSpec struct {
	Name      string `json:"name"`
	Email     string `json:"email"`
	Admin     bool   `json:"admin"`
	SuperUser bool   `json:"superUser"`
	// CustomerID puts the user in an existing customer; 0 means the default
	// customer. NewCustomer puts the user in a new customer instead.
	CustomerID  int64 `json:"customerId,omitempty"`
	NewCustomer bool  `json:"newCustomer,omitempty"`
}

// UserCredentials are a user's ids and credentials, the shape of GET
// /mock/credentials and POST /mock/users.
type UserCredentials struct {
	ClientID     string `json:"clientId"`
	ClientSecret string `json:"clientSecret"`
	APIKey       string `json:"apiKey"`
	APISecret    string `json:"apiSecret"`
	CustomerID   int64  `json:"customerId"`
	UserID       int64  `json:"userId"`
}

// Credentials converts to the SDK's credentials type.
func (c UserCredentials) Credentials() auth.Credentials {
	return auth.Credentials{ClientID: c.ClientID, ClientSecret: c.ClientSecret, APIKey: c.APIKey, APISecret: c.APISecret}
}

// String describes the credentials without their secrets.
func (c UserCredentials) String() string {
	return fmt.Sprintf("UserCredentials{UserID:%d, CustomerID:%d, %s}", c.UserID, c.CustomerID, c.Credentials())
}

// accountStore holds customers and users.
type accountStore struct {
	mu           sync.RWMutex
	users        map[int64]*user
	customers    map[int64]bool
	nextUser     int64
	nextCustomer int64
}

func newAccountStore() *accountStore {
	a := &accountStore{}
	a.reset()
	return a
}

// reset returns to the default customer with its admin user.
func (a *accountStore) reset() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.users = map[int64]*user{DefaultUserID: {
		ID: DefaultUserID, CustomerID: DefaultCustomerID, Name: "Mock Admin", Email: "admin@example.test", Admin: true,
		Creds: auth.Credentials{ClientID: DefaultClientID, ClientSecret: DefaultClientSecret,
			APIKey: DefaultAPIKey, APISecret: DefaultAPISecret},
	}}
	a.customers = map[int64]bool{DefaultCustomerID: true}
	a.nextUser, a.nextCustomer = DefaultUserID+1, DefaultCustomerID+1
}

// add creates a user with fresh random credentials.
func (a *accountStore) add(spec UserSpec) (*user, error) {
	var p wire.Problems
	if spec.Name == "" {
		p.Add("name", "is required")
	}
	if spec.Email != "" && !validEmail(spec.Email) {
		p.Add("email", "is not an email address")
	}
	if spec.NewCustomer && spec.CustomerID != 0 {
		p.Add("customerId", "must be omitted with newCustomer")
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	cust := spec.CustomerID
	if cust == 0 {
		cust = DefaultCustomerID
	}
	if !spec.NewCustomer && !a.customers[cust] {
		p.Add("customerId", "no customer %d", cust)
	}
	if err := p.Err(); err != nil {
		return nil, err
	}
	if spec.NewCustomer {
		cust = a.nextCustomer
		a.nextCustomer++
		a.customers[cust] = true
	}
	u := &user{ID: a.nextUser, CustomerID: cust, Name: spec.Name, Email: spec.Email, Admin: spec.Admin,
		SuperUser: spec.SuperUser, Creds: auth.Credentials{
			ClientID: "client-" + ids.Hex(8), ClientSecret: ids.Hex(24),
			APIKey: "key-" + ids.Hex(8), APISecret: ids.Hex(24)}}
	a.nextUser++
	a.users[u.ID] = u
	return u, nil
}

func (a *accountStore) byID(id int64) *user {
	a.mu.RLock()
	defer a.mu.RUnlock()
	return a.users[id]
}

// byClient finds the user whose OAuth client matches id and secret.
func (a *accountStore) byClient(id, secret string) *user {
	a.mu.RLock()
	defer a.mu.RUnlock()
	for _, u := range a.users {
		if u.Creds.ClientID == id && subtle.ConstantTimeCompare([]byte(u.Creds.ClientSecret), []byte(secret)) == 1 {
			return u
		}
	}
	return nil
}

// byAPIKey finds the user that owns an API key.
func (a *accountStore) byAPIKey(key string) *user {
	a.mu.RLock()
	defer a.mu.RUnlock()
	for _, u := range a.users {
		if u.Creds.APIKey == key {
			return u
		}
	}
	return nil
}

func (u *user) credentials() UserCredentials {
	return UserCredentials{ClientID: u.Creds.ClientID, ClientSecret: u.Creds.ClientSecret, APIKey: u.Creds.APIKey,
		APISecret: u.Creds.APISecret, CustomerID: u.CustomerID, UserID: u.ID}
}
