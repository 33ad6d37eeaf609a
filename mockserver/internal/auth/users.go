package auth

import (
	"cmp"
	"crypto/subtle"
	"slices"
	"sync"

	"github.com/signkit/signkit-go/mockserver/internal/format"

	"github.com/signkit/signkit-go/mockserver/internal/ids"
	"github.com/signkit/signkit-go/mockserver/internal/wire"

	sdkauth "github.com/signkit/signkit-go/auth"
)

// User is an API user of a customer, with its own OAuth client and API key.
type User struct {
	ID         int64
	CustomerID int64
	Name       string
	Email      string
	Admin      bool
	SuperUser  bool // a super API user sees every case file of the customer
	Creds      sdkauth.Credentials
}

// Spec describes a user to add; its JSON is the body of POST /mock/users,
// and its fields match mockserver.UserSpec one for one.
type Spec struct {
	Name      string `json:"name"`
	Email     string `json:"email"`
	Admin     bool   `json:"admin"`
	SuperUser bool   `json:"superUser"`
	// CustomerID puts the user in an existing customer; 0 means the default
	// customer. NewCustomer puts the user in a new customer instead.
	CustomerID  int64 `json:"customerId,omitempty"`
	NewCustomer bool  `json:"newCustomer,omitempty"`
}

// Identity is a user's ids and credentials, the JSON of GET
// /mock/credentials and POST /mock/users; its fields match
// mockserver.UserCredentials one for one.
type Identity struct {
	ClientID     string `json:"clientId"`
	ClientSecret string `json:"clientSecret"`
	APIKey       string `json:"apiKey"`
	APISecret    string `json:"apiSecret"`
	CustomerID   int64  `json:"customerId"`
	UserID       int64  `json:"userId"`
}

// Identity answers the user's ids and credentials.
func (u *User) Identity() Identity {
	return Identity{ClientID: u.Creds.ClientID, ClientSecret: u.Creds.ClientSecret, APIKey: u.Creds.APIKey,
		APISecret: u.Creds.APISecret, CustomerID: u.CustomerID, UserID: u.ID}
}

// store holds customers and users.
type store struct {
	admin        User // the default customer's admin user, restored by reset
	mu           sync.RWMutex
	users        map[int64]*User
	customers    map[int64]bool
	nextUser     int64
	nextCustomer int64
}

func newStore(admin User) *store {
	a := &store{admin: admin}
	a.reset()
	return a
}

// reset returns to the default customer with its admin user.
func (a *store) reset() {
	a.mu.Lock()
	defer a.mu.Unlock()
	admin := a.admin
	a.users = map[int64]*User{admin.ID: &admin}
	a.customers = map[int64]bool{admin.CustomerID: true}
	a.nextUser, a.nextCustomer = admin.ID+1, admin.CustomerID+1
}

// add creates a user with fresh random credentials.
func (a *store) add(spec Spec) (*User, error) {
	var p wire.Problems
	if spec.Name == "" {
		p.Add("name", "is required")
	}
	if spec.Email != "" && !format.Email(spec.Email) {
		p.Add("email", "is not an email address")
	}
	if spec.NewCustomer && spec.CustomerID != 0 {
		p.Add("customerId", "must be omitted with newCustomer")
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	cust := spec.CustomerID
	if cust == 0 {
		cust = a.admin.CustomerID
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
	u := &User{ID: a.nextUser, CustomerID: cust, Name: spec.Name, Email: spec.Email, Admin: spec.Admin,
		SuperUser: spec.SuperUser, Creds: sdkauth.Credentials{
			ClientID: "client-" + ids.Hex(8), ClientSecret: ids.Hex(24),
			APIKey: "key-" + ids.Hex(8), APISecret: ids.Hex(24)}}
	a.nextUser++
	a.users[u.ID] = u
	return u, nil
}

func (a *store) byID(id int64) *User {
	a.mu.RLock()
	defer a.mu.RUnlock()
	return a.users[id]
}

// byClient finds the user whose OAuth client matches id and secret.
func (a *store) byClient(id, secret string) *User {
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
func (a *store) byAPIKey(key string) *User {
	a.mu.RLock()
	defer a.mu.RUnlock()
	for _, u := range a.users {
		if u.Creds.APIKey == key {
			return u
		}
	}
	return nil
}

// admins answers the admin users of a customer, by id.
func (a *store) admins(customerID int64) []*User {
	a.mu.RLock()
	defer a.mu.RUnlock()
	var out []*User
	for _, u := range a.users {
		if u.CustomerID == customerID && u.Admin {
			out = append(out, u)
		}
	}
	slices.SortFunc(out, func(x, y *User) int { return cmp.Compare(x.ID, y.ID) })
	return out
}
