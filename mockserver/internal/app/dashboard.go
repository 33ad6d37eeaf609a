package app

import "github.com/signkit/signkit-go/mockserver/internal/dashboard"

// dashboard builds the dashboard of /mock/ui over the services.
func (a *App) dashboard() *dashboard.Dashboard {
	return dashboard.New(dashboard.Config{
		Emails: a.Signing.Emails, CaseFiles: a.Signing.Views, SignerAction: a.Signing.Control.SignerAction,
		ChangeEmail: a.Signing.Control.ChangeSignerEmail, Resend: a.Signing.Control.ResendSigningRequest,
		Subscriptions: a.Webhooks.Views, Deliveries: a.Webhooks.Deliveries, Replay: a.Webhooks.Replay,
		Now: a.Clock.Now, Manual: a.Cfg.ManualClock, Advance: a.Clock.Advance, MaxBodyBytes: a.Cfg.MaxBodyBytes,
	})
}
