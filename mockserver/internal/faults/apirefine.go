package faults

// APIRefinements answers the units of a fault's numbers, for the OpenAPI
// description
// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#openapi-description):
// the same for the fault given (FaultSpec) and the fault listed (Fault).
func APIRefinements() map[string]map[string]map[string]any {
	units := func() map[string]map[string]any {
		return map[string]map[string]any{
			"retryAfter": {"description": "Seconds, sent as the Retry-After header of the injected status; 0: none."},
			"delayMs":    {"description": "Milliseconds to wait before answering (at most 10 minutes); 0: none."},
			"times": {"description": "How many requests the fault hits before it is removed (listed: the hits it has left); " +
				"0: every request until the faults are cleared."},
		}
	}
	return map[string]map[string]map[string]any{"Fault": units(), "FaultSpec": units()}
}
