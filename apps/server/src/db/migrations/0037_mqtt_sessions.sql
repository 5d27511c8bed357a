-- The server's sessions on an external broker (issue 29). Each instance reads the shared
-- subscription through persistent sessions; a broker keeps handing a dead instance's session its
-- share of the messages and keeps them until that client id comes back, which a pid-named id
-- never does. Every instance marks its sessions as seen; a session not seen for a while is
-- adopted by a live instance, which drains what the broker kept for it and then ends it
-- (modules/gateway/mqtt-sessions.ts).
CREATE TABLE mqtt_sessions (
  client_id varchar(64) PRIMARY KEY,
  -- The instance reading it now: the owner, or the instance that adopted it.
  holder varchar(64) NOT NULL,
  seen_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX mqtt_sessions_seen ON mqtt_sessions (seen_at);
