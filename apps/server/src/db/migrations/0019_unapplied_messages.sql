-- Message type 5: a device message the engine could not apply after every retry (its inbox row
-- 'dead'), told to the system organisation in its message centre (engine/unapplied.ts). Not an
-- alarm: no popup, no escalation. Its event is the stored message: event_type 5, event_id the
-- device_inbox row's id, so (msg_type, event_id) keeps it to one message per stored message.
ALTER TABLE messages DROP CONSTRAINT IF EXISTS messages_msg_type_check;
ALTER TABLE messages ADD CONSTRAINT messages_msg_type_check CHECK (msg_type BETWEEN 1 AND 5);
ALTER TABLE messages DROP CONSTRAINT IF EXISTS messages_event_type_check;
ALTER TABLE messages ADD CONSTRAINT messages_event_type_check CHECK (event_type BETWEEN 1 AND 5);
