// Package version holds the SDK's release version and the User-Agent built from it.
package version

import "runtime"

// Version is the SDK's semantic version.
const Version = "0.1.0"

// UserAgent is the SDK's own User-Agent: signkit-go/<version> (go<version>).
// A non-empty prefix (the application's own product token) comes first.
func UserAgent(prefix string) string {
	ua := "signkit-go/" + Version + " (" + runtime.Version() + ")"
	if prefix != "" {
		return prefix + " " + ua
	}
	return ua
}
