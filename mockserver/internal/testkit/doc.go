// Package testkit is the one kit of the mock's own tests: requests to a mock
// in process (Call, Do, Login), the forms, Send case files and webhook
// subscriptions the tests set up, a receiver that records deliveries, and a
// typed way to the services behind a mockserver.Server (Core) for what a test
// must read that no route shows. It does not import package mockserver, so
// that package's own tests use it too: it works on any value with the
// methods of Server, which *mockserver.Server has
// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#layout).
package testkit
