package mockserver

// Stats counts what the mock holds, so that a test can check that nothing
// was stored twice or lost (after a fault, a retry, a refused request). GET
// /mock/stats answers the same counts.
type Stats struct {
	Forms           int `json:"forms"`
	PrefillRequests int `json:"prefillRequests"`
	Submissions     int `json:"submissions"`
	CaseFiles       int `json:"caseFiles"`
	Jobs            int `json:"jobs"` // Send jobs, queued or run
	Subscriptions   int `json:"subscriptions"`
}
