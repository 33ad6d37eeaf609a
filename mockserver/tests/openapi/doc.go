// Package openapi holds the tests that check the mock against its OpenAPI
// description with kin-openapi: the description is valid OpenAPI and equal to
// docs/openapi.json, every route and event is described, and the traffic
// the integration suites and the recipes exchanged with the mock matches it.
// It has no code of its own: the tests live in a module of their own so that
// the mock's module requires no OpenAPI validator
// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#openapi-description).
package openapi
