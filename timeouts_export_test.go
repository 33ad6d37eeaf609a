package signkit

import "net"

// SetDialHook sets the hook given every connection the default client dials
// and returns a function that removes it.
func SetDialHook(hook func(net.Conn)) (restore func()) {
	old := dialHook
	dialHook = hook
	return func() { dialHook = old }
}
