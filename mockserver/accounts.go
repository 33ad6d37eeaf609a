package mockserver

import (
	"fmt"

	sdkauth "github.com/signkit/signkit-go/auth"
	"github.com/signkit/signkit-go/mockserver/internal/auth"
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

// defaultAdmin is the default customer's admin user.
var defaultAdmin = auth.User{ID: DefaultUserID, CustomerID: DefaultCustomerID, Name: "Mock Admin",
	Email: "admin@example.test", Admin: true, Creds: sdkauth.Credentials{ClientID: DefaultClientID,
		ClientSecret: DefaultClientSecret, APIKey: DefaultAPIKey, APISecret: DefaultAPISecret}}

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
func (c UserCredentials) Credentials() sdkauth.Credentials {
	return sdkauth.Credentials{ClientID: c.ClientID, ClientSecret: c.ClientSecret, APIKey: c.APIKey, APISecret: c.APISecret}
}

// String describes the credentials without their secrets.
func (c UserCredentials) String() string {
	return fmt.Sprintf("UserCredentials{UserID:%d, CustomerID:%d, %s}", c.UserID, c.CustomerID, c.Credentials())
}
