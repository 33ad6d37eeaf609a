# signkit-mock, the in-memory platform, in a container:
#
#   docker build -t signkit-mock .
#   docker run --rm -p 8080:8080 signkit-mock
#
# It listens on all interfaces inside the container, port 8080. Flags after
# the image name are the binary's (signkit-mock -h); a Host name other than
# a loopback one (a compose service's, say) must be admitted with
# -allow-host NAME. CI does not build this image (its machine may have no
# Docker engine); .ci/run builds the same binary with GoReleaser.

FROM golang:1.26 AS build
WORKDIR /src
# The whole workspace (go.work and every module it uses): the binary's
# module requires the mock's and the SDK's at the placeholder version that
# only go.work resolves (docs/architecture.md, "Modules").
COPY . .
# Static (no cgo), so that it runs on distroless/static, which has no libc.
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/signkit-mock ./cmd/signkit-mock

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/signkit-mock /usr/local/bin/signkit-mock
USER nonroot:nonroot
EXPOSE 8080
ENTRYPOINT ["/usr/local/bin/signkit-mock", "-addr", "0.0.0.0:8080"]
