module github.com/signkit/signkit-go/webhooks/redisdedup

go 1.25

require (
	github.com/redis/go-redis/v9 v9.22.0
	github.com/signkit/signkit-go v0.0.0-00010101000000-000000000000
	github.com/signkit/signkit-go/internal/redis v0.0.0-00010101000000-000000000000
)

require (
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	go.uber.org/atomic v1.11.0 // indirect
	golang.org/x/sys v0.37.0 // indirect
)
