-- Dispatch (派单, issue 26, modules/dispatch): a call turned into responders alerted, phase by
-- phase, each alert with an answer deadline. State in the database, not timers in memory: every
-- phase and every answer window is a stored deadline a job sweeps (SKIP LOCKED), so a restart or
-- a second instance changes nothing and no responder gets the same alert twice.
CREATE TABLE dispatches (
  id             bigserial PRIMARY KEY,
  -- What started it: a call, or a rescue no call explains (one of the two).
  call_id        bigint UNIQUE REFERENCES call_events (id) ON DELETE CASCADE,
  rescue_id      bigint UNIQUE REFERENCES rescue_events (id) ON DELETE CASCADE,
  agency_id      bigint NOT NULL REFERENCES agencies (id),
  index_link     text NOT NULL,
  -- Where help is needed (GCJ-02).
  lat            double precision NOT NULL,
  lon            double precision NOT NULL,
  state          varchar(8) NOT NULL DEFAULT 'running' CHECK (state IN ('running', 'enough', 'closed')),
  -- The phase reached (0 the first radius) and when the next one widens it.
  phase          smallint NOT NULL DEFAULT 0,
  next_phase_at  timestamptz,
  -- The organisation's dispatch settings when it started (a change mid-call does not apply).
  settings       jsonb NOT NULL,
  create_time    timestamptz NOT NULL DEFAULT now(),
  closed_at      timestamptz,
  CHECK ((call_id IS NULL) <> (rescue_id IS NULL))
);
CREATE INDEX dispatches_phase_idx ON dispatches (next_phase_at) WHERE state = 'running';
CREATE INDEX dispatches_open_idx ON dispatches (id) WHERE state <> 'closed';

CREATE TABLE dispatch_alerts (
  id             bigserial PRIMARY KEY,
  dispatch_id    bigint NOT NULL REFERENCES dispatches (id) ON DELETE CASCADE,
  responder_id   bigint NOT NULL REFERENCES responders (id) ON DELETE CASCADE,
  -- SHA-256 of the link's token (the token itself is only in the SMS).
  token_hash     char(64) NOT NULL UNIQUE,
  role           varchar(8) NOT NULL CHECK (role IN ('patient', 'aed')),
  -- The AED to fetch (role aed), replaced when it stops being ready.
  device_id      bigint REFERENCES devices (id),
  state          varchar(12) NOT NULL DEFAULT 'alerted'
                   CHECK (state IN ('alerted', 'accepted', 'declined', 'expired', 'arrived', 'stood_down')),
  -- Metres on the way (by the AED for role aed) and seconds at the walking speed.
  distance       integer NOT NULL,
  eta_s          integer NOT NULL,
  alerted_at     timestamptz NOT NULL,
  answer_due_at  timestamptz NOT NULL,
  answered_at    timestamptz,
  arrived_at     timestamptz,
  stood_down_at  timestamptz,
  -- The cabinet of its AED was told to unlock (once).
  unlocked_at    timestamptz,
  UNIQUE (dispatch_id, responder_id)
);
CREATE INDEX dispatch_alerts_due_idx ON dispatch_alerts (answer_due_at) WHERE state = 'alerted';
CREATE INDEX dispatch_alerts_responder_idx ON dispatch_alerts (responder_id, alerted_at DESC);

-- The dispatch's steps in order (the call's timeline, the live push and the webhooks read them).
CREATE TABLE dispatch_steps (
  id            bigserial PRIMARY KEY,
  dispatch_id   bigint NOT NULL REFERENCES dispatches (id) ON DELETE CASCADE,
  alert_id      bigint REFERENCES dispatch_alerts (id) ON DELETE CASCADE,
  -- started, alerted, accepted, declined, expired, arrived, stood_down, unlocked, aed_replaced,
  -- phase, enough, closed.
  kind          varchar(16) NOT NULL,
  detail        jsonb NOT NULL DEFAULT '{}',
  time          timestamptz NOT NULL
);
CREATE INDEX dispatch_steps_dispatch_idx ON dispatch_steps (dispatch_id, id);

-- A responder's last shared position (from the alert page), used for 30 minutes.
ALTER TABLE responders
  ADD COLUMN last_lat double precision,
  ADD COLUMN last_lon double precision,
  ADD COLUMN located_at timestamptz;

-- The coverage page: whether a ready AED was within 500 m when the call came in, recorded then
-- (readiness changes; asking later would answer for another moment).
ALTER TABLE call_events ADD COLUMN ready_aeds_500m integer;

-- Responders near a point: their resident points (the accounts') by distance.
CREATE INDEX accounts_earth_idx ON accounts USING gist (ll_to_earth(lat, lon)) WHERE lat IS NOT NULL AND lon IS NOT NULL;

-- SMS kind 'dispatch': an alert's link, a stand-down, the call closed.
ALTER TABLE sms_outbox DROP CONSTRAINT IF EXISTS sms_outbox_kind_check;
ALTER TABLE sms_outbox ADD CONSTRAINT sms_outbox_kind_check
  CHECK (kind IN ('code', 'aid', 'status', 'escalation', 'digest', 'certificate', 'dispatch'));

-- Outbox topic 'dispatch': a new call's dispatch starts in the drain after its commit.
ALTER TABLE outbox DROP CONSTRAINT IF EXISTS outbox_topic_check;
ALTER TABLE outbox ADD CONSTRAINT outbox_topic_check CHECK (topic IN ('live', 'message', 'sms', 'webhook', 'dispatch'));
