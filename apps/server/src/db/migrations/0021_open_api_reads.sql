-- The open API's change feeds (issue 23): GET /open-api/v1/aed/status and /open-api/v1/event/
-- page forward by change time, so each change time has an index.
--
-- An AED changed when its device row, its site or its engine state did:
-- greatest(devices.update_time, installations.update_time, device_states.update_time). A
-- greatest over three tables has no index of its own; the list takes its candidates from these
-- three, each a range scan from changed_since.
CREATE INDEX device_states_update_idx ON device_states (update_time);
CREATE INDEX devices_update_idx ON devices (update_time) WHERE deleted_at IS NULL;
CREATE INDEX installations_update_idx ON installations (update_time)
  WHERE removed_at IS NULL AND device_id IS NOT NULL;

-- A device event changed when it opened, closed or was handled; the feed walks this in order.
CREATE INDEX device_events_changed_idx ON device_events ((greatest(event_time, closed_at, handle_time)), id);
