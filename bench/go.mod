module github.com/signkit/signkit-go/bench

go 1.25

replace github.com/signkit/signkit-go => ../

require (
	github.com/signkit/signkit-go v0.0.0
	github.com/standard-webhooks/standard-webhooks/libraries v0.0.1
	github.com/stripe/stripe-go/v85 v85.0.0
	github.com/svix/svix-webhooks v1.44.0
)

require (
	github.com/google/go-querystring v1.2.0 // indirect
	github.com/hashicorp/go-cleanhttp v0.5.2 // indirect
	github.com/hashicorp/go-retryablehttp v0.7.8 // indirect
	gopkg.in/validator.v2 v2.0.1 // indirect
)
