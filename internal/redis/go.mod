module github.com/signkit/signkit-go/internal/redis

go 1.25

require github.com/redis/go-redis/v9 v9.22.0

require (
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/stretchr/testify v1.12.1 // indirect
	go.uber.org/atomic v1.11.0 // indirect
	golang.org/x/sys v0.37.0 // indirect
)
