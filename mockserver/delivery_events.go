package mockserver

// testEventMessage is the payload of the test event.
const testEventMessage = "This is a test event from the signkit mock server."

// consumeEventLog makes the delivery engine a listener of the event log:
// every event of every case file of a customer (whichever user created it)
// goes to each active subscription of the customer that lists its type.
func (s *Server) consumeEventLog() {
	s.sign.events.subscribe(func(ev *event) {
		s.publishEvent(webhookEvent{CustomerID: ev.CustomerID, Type: ev.Type, Body: ev.Body})
	})
}

// emitTestEvent puts a webhook.subscription.test event of a customer in the
// event log (topic subscription, eventType test, a text message as payload).
func (s *Server) emitTestEvent(customerID int64) {
	s.sign.events.emit(customerID, 0, testEventType, s.Now(), testEventMessage)
}

// sendNotificationEmail puts an email without a signing link in the outbox.
func (s *Server) sendNotificationEmail(to, subject, text string) { s.sendEmail(to, subject, text, "") }
