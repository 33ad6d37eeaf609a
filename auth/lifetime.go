package auth

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"time"
)

// tokenResponse is the login service's answer: {"access_token",
// "token_type":"Bearer","expires_in":600,...}
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#authentication).
type tokenResponse struct {
	AccessToken string  `json:"access_token"`
	TokenType   string  `json:"token_type"`
	ExpiresIn   seconds `json:"expires_in"`
	ExpiresAt   seconds `json:"access_token_expires_at"`
}

// seconds is a count of seconds as the login service may write it: any JSON
// number (600, 600.0, 1e19), or a string holding one ("600"). Anything else
// (null, a bool, a word) leaves it unset rather than failing the token: the
// access token is what matters, and a lifetime can be assumed.
type seconds struct {
	v   float64
	set bool
}

// UnmarshalJSON implements json.Unmarshaler; it never fails.
func (s *seconds) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		var str string
		if json.Unmarshal(b, &str) != nil {
			return nil
		}
		b = []byte(str)
	}
	// ParseFloat takes what JSON numbers allow and more (Inf, NaN, hex),
	// which the checks below and in lifetime reduce to sane values. A
	// number out of float64's range parses as ±Inf with an error: keep it.
	f, err := strconv.ParseFloat(string(bytes.TrimSpace(b)), 64)
	if err != nil && !math.IsInf(f, 0) || math.IsNaN(f) {
		return nil
	}
	*s = seconds{v: f, set: true}
	return nil
}

// duration converts s to a duration, saturating at MaxTokenLifetime so that
// no value (1e19, +Inf) overflows.
func (s seconds) duration() time.Duration {
	if s.v >= MaxTokenLifetime.Seconds() {
		return MaxTokenLifetime
	}
	return time.Duration(s.v * float64(time.Second))
}

// lifetime is how long the token is taken to live from requested, the local
// time the request was sent: expires_in when positive (counted on the local
// clock, so clock skew with the server does not matter), else
// access_token_expires_at less the local time, else the platform's ten
// minutes; in every case clamped to [MinTokenLifetime, MaxTokenLifetime].
//
// The floor keeps a token that the platform says lives 30 s (or 0, or less than
// the renewal margin) cached long enough for more than one call, instead of
// every call fetching a new token; a token used a little past its real expiry
// is refused with a 401, which the SDK answers by renewing once and replaying.
// The ceiling bounds how long a token is trusted when expires_in is absurd
// (1e19): an hour, six times the platform's ten minutes
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#authentication).
func (tr tokenResponse) lifetime(requested time.Time) time.Duration {
	var d time.Duration
	switch {
	case tr.ExpiresIn.set && tr.ExpiresIn.v > 0:
		d = tr.ExpiresIn.duration()
	case tr.ExpiresAt.set && tr.ExpiresAt.v > 0:
		if tr.ExpiresAt.v >= float64(requested.Add(MaxTokenLifetime).Unix()) {
			d = MaxTokenLifetime
		} else {
			d = time.Unix(int64(tr.ExpiresAt.v), 0).Sub(requested)
		}
	default:
		d = defaultLifetime
	}
	return min(max(d, MinTokenLifetime), MaxTokenLifetime)
}

// renewalTime is how long after it was requested a token with lifetime life
// is renewed: renewBefore ahead of its expiry, but never later than half its
// lifetime, so that a short-lived token is still cached for half its life
// (at least MinTokenLifetime/2) rather than renewed on every call.
func renewalTime(life, renewBefore time.Duration) time.Duration {
	margin := min(max(renewBefore, 0), life/2)
	return life - margin
}
