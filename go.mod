module github.com/signkit/signkit-go

go 1.25
