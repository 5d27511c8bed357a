-- Webhook delivery (issue 23, modules/webhook).
--
-- Message type 6: a webhook endpoint was disabled (HTTP 410, or its oldest pending delivery
-- failing for over a day), told to its organisation's message centre. Not an alarm. Its event is
-- the delivery that disabled it: event_type 6, event_id the webhook_deliveries row's id.
ALTER TABLE messages DROP CONSTRAINT IF EXISTS messages_msg_type_check;
ALTER TABLE messages ADD CONSTRAINT messages_msg_type_check CHECK (msg_type BETWEEN 1 AND 6);
ALTER TABLE messages DROP CONSTRAINT IF EXISTS messages_event_type_check;
ALTER TABLE messages ADD CONSTRAINT messages_event_type_check CHECK (event_type BETWEEN 1 AND 6);

-- When a delivery's first failed attempt was (since it was last written or resent): an endpoint
-- whose oldest pending delivery has been failing for over 24 hours is disabled.
ALTER TABLE webhook_deliveries ADD COLUMN first_failed_at timestamptz;
