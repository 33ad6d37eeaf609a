module github.com/signkit/signkit-go/bench

go 1.25

require (
	github.com/signkit/signkit-go v0.0.0-00010101000000-000000000000
	github.com/standard-webhooks/standard-webhooks/libraries v0.0.1
	github.com/stripe/stripe-go/v85 v85.0.0
	github.com/svix/svix-webhooks v1.44.0
)

require gopkg.in/validator.v2 v2.0.1 // indirect
