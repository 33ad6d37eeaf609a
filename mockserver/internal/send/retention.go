package send

import "time"

// Job retention
// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#job-retention):
// the platform forgets jobs after a while (its connector: the job "has expired
// or been deleted"), and so does the mock when Config.JobRetention is set. A
// job that has ended (completed, failed or aborted as a duplicate) is forgotten
// JobRetention of mock time after it ended: its status check then answers the
// 404 of an unknown job, and its place among the customer's jobs (Limits.Jobs)
// is given back. A pending or processing job is never forgotten. Duplicate
// detection does not depend on retention: a forgotten job's payload still
// counts for the rest of its 24-hour window.

// ended reports whether a job has reached a final state.
func (j *Job) ended() bool {
	return j.State == jobCompleted || j.State == jobFailed || j.State == jobDuplicate
}

// expired reports whether a job is past its retention at now; a retention
// of 0 or less keeps every job.
func (j *Job) expired(retention time.Duration, now time.Time) bool {
	return retention > 0 && j.ended() && !now.Before(j.UpdatedAt.Add(retention))
}

// forget removes j from the store, unless a reset has replaced it; it
// answers whether it did. The duplicate window of j's payload stays.
func (js *jobStore) forget(j *Job) bool {
	js.mu.Lock()
	defer js.mu.Unlock()
	if js.jobs[j.UUID] != j {
		return false
	}
	delete(js.jobs, j.UUID)
	return true
}

// retire schedules the forgetting of an ended job after the retention,
// when there is one.
func (svc *Service) retire(j *Job) {
	if svc.cfg.JobRetention <= 0 {
		return
	}
	svc.cfg.Clock.After(svc.cfg.JobRetention, func() {
		if svc.jobs.forget(j) && svc.cfg.GiveJob != nil {
			svc.cfg.GiveJob(j.CustomerID)
		}
	})
}
