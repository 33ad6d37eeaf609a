module github.com/signkit/signkit-go/examples

go 1.25

require (
	github.com/redis/go-redis/v9 v9.22.0
	github.com/signkit/signkit-go v0.0.0-00010101000000-000000000000
	github.com/signkit/signkit-go/internal/redis v0.0.0-00010101000000-000000000000
	github.com/signkit/signkit-go/mockserver v0.0.0-00010101000000-000000000000
	github.com/signkit/signkit-go/webhooks/redisdedup v0.0.0-00010101000000-000000000000
	github.com/signkit/signkit-go/webhooks/redisqueue v0.0.0-00010101000000-000000000000
)

require (
	github.com/kr/text v0.2.0 // indirect
	github.com/rogpeppe/go-internal v1.9.0 // indirect
)

require (
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/clipperhouse/uax29/v2 v2.2.0 // indirect
	github.com/go-pdf/fpdf v0.9.0 // indirect
	github.com/google/go-querystring v1.2.0 // indirect
	github.com/hashicorp/go-cleanhttp v0.5.2 // indirect
	github.com/hashicorp/go-retryablehttp v0.7.8 // indirect
	github.com/hhrutter/lzw v1.0.0 // indirect
	github.com/hhrutter/pkcs7 v0.2.0 // indirect
	github.com/hhrutter/tiff v1.0.2 // indirect
	github.com/mattn/go-runewidth v0.0.19 // indirect
	github.com/pdfcpu/pdfcpu v0.11.1 // indirect
	github.com/pkg/errors v0.9.1 // indirect
	go.uber.org/atomic v1.11.0 // indirect
	golang.org/x/crypto v0.43.0 // indirect
	golang.org/x/image v0.32.0 // indirect
	golang.org/x/sys v0.37.0 // indirect
	golang.org/x/text v0.30.0 // indirect
	gopkg.in/yaml.v2 v2.4.0 // indirect
)
