-- The device gateway and status engine (ARCHITECTURE.md, "Devices, events and alarms"):
-- every message lands in the inbox before the device hears "yes"; one transaction per message
-- applies it to the device's conditions and leaves outbox rows for whoever must be told.

-- Readiness beside the status: would this AED work now? The list and the detail show it.
ALTER TABLE devices
  ADD COLUMN readiness varchar(10) NOT NULL DEFAULT 'unknown'
    CHECK (readiness IN ('ready', 'not_ready', 'unknown')),
  -- Why not ready or unknown (READINESS_REASONS of the contracts); empty when ready.
  ADD COLUMN readiness_reasons text[] NOT NULL DEFAULT '{never_reported}',
  -- The last self-test that passed.
  ADD COLUMN last_pass_at timestamptz;

-- What the engine keeps of each device that ever reported; written on every message, so it is
-- its own narrow row and the registry's rows (and their list indexes) stay still.
CREATE TABLE device_states (
  device_id          bigint PRIMARY KEY REFERENCES devices (id),
  -- The newest applied (boot, seq): an older message is stored, never applied over it.
  last_boot          integer NOT NULL DEFAULT 0,
  last_seq           bigint NOT NULL DEFAULT -1,
  last_seen_at       timestamptz NOT NULL,
  -- Declared by `hello`; NULL: the model's or the default interval.
  report_interval_s  integer,
  -- Offline when this passes without a message (the sweep); NULL while offline.
  next_deadline_at   timestamptz,
  offline            boolean NOT NULL DEFAULT false,
  rssi               smallint,
  -- A rescue under way (no offsets raised meanwhile) and its last step, to end it after a quiet hour.
  rescue_id          bigint REFERENCES rescue_events (id) ON DELETE SET NULL,
  rescue_last_at     timestamptz,
  -- Consecutive GNSS fixes beyond the offset threshold, and the last of them.
  offset_streak      smallint NOT NULL DEFAULT 0,
  last_fix           jsonb,
  update_time        timestamptz NOT NULL DEFAULT now()
);
-- The offline sweep: deadlines in time order, only of devices still online.
CREATE INDEX device_states_deadline_idx ON device_states (next_deadline_at) WHERE NOT offline;

-- The inbox: every message a device sent, as received, once per (sender, message id). A row
-- without processed_at is acknowledged but not yet applied (the engine's retry picks it up).
CREATE TABLE device_inbox (
  id            bigserial PRIMARY KEY,
  -- 'aed' (devices.id) or 'cabinet' (cabinets, with the cabinet issue).
  sender_kind   varchar(8) NOT NULL DEFAULT 'aed' CHECK (sender_kind IN ('aed', 'cabinet')),
  sender_id     bigint NOT NULL,
  msg_id        varchar(64) NOT NULL,
  type          varchar(32) NOT NULL,
  boot          integer NOT NULL,
  seq           bigint NOT NULL,
  -- The device clock as sent, and the time used: the receive time when the clock was off.
  device_ts     timestamptz,
  event_time    timestamptz NOT NULL,
  ts_flagged    boolean NOT NULL DEFAULT false,
  received_at   timestamptz NOT NULL,
  transport     varchar(8) NOT NULL CHECK (transport IN ('mqtt', 'https')),
  data          jsonb NOT NULL,
  processed_at  timestamptz,
  -- applied, stale (older than the state, records only), coalesced (a heartbeat that changed
  -- nothing), ignored (unknown type), failed (kept for the retry; error says why).
  outcome       varchar(10) CHECK (outcome IN ('applied', 'stale', 'coalesced', 'ignored', 'failed')),
  error         text,
  attempts      smallint NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX device_inbox_msg_idx ON device_inbox (sender_kind, sender_id, msg_id);
CREATE INDEX device_inbox_pending_idx ON device_inbox (id) WHERE processed_at IS NULL OR outcome = 'failed';
CREATE INDEX device_inbox_received_idx ON device_inbox (received_at);

-- The outbox: what must be told, written in the transaction that found it. Dispatchers take
-- rows with FOR UPDATE SKIP LOCKED, retry with backoff, and mark them done; dedupe_key makes a
-- repeated write (a retried transaction) one row.
CREATE TABLE outbox (
  id            bigserial PRIMARY KEY,
  -- live (a push on the live channel), message (the message centre), sms, webhook.
  topic         varchar(16) NOT NULL CHECK (topic IN ('live', 'message', 'sms', 'webhook')),
  dedupe_key    varchar(160) NOT NULL UNIQUE,
  -- Who may hear of it: the device's organisation and its path (scope of live pushes).
  agency_id     bigint REFERENCES agencies (id),
  index_link    text,
  payload       jsonb NOT NULL,
  create_time   timestamptz NOT NULL DEFAULT now(),
  available_at  timestamptz NOT NULL DEFAULT now(),
  attempts      integer NOT NULL DEFAULT 0,
  done_at       timestamptz,
  last_error    text
);
CREATE INDEX outbox_pending_idx ON outbox (topic, available_at, id) WHERE done_at IS NULL;

-- Commands to devices: created by a super administrator, sent on MQTT at once or in the next
-- HTTPS answer, answered by the device's `ack`, expired when nobody answered in time.
CREATE TABLE device_commands (
  id            bigserial PRIMARY KEY,
  cmd_id        varchar(40) NOT NULL UNIQUE,
  sender_kind   varchar(8) NOT NULL DEFAULT 'aed' CHECK (sender_kind IN ('aed', 'cabinet')),
  sender_id     bigint NOT NULL,
  name          varchar(16) NOT NULL,
  args          jsonb NOT NULL DEFAULT '{}'::jsonb,
  state         varchar(8) NOT NULL DEFAULT 'pending'
    CHECK (state IN ('pending', 'sent', 'done', 'failed', 'expired')),
  creator       bigint,
  creator_name  varchar(50),
  create_time   timestamptz NOT NULL DEFAULT now(),
  expires_at    timestamptz NOT NULL,
  sent_at       timestamptz,
  ack_time      timestamptz,
  error         varchar(200)
);
CREATE INDEX device_commands_sender_idx ON device_commands (sender_kind, sender_id, create_time DESC);
CREATE INDEX device_commands_open_idx ON device_commands (sender_kind, sender_id)
  WHERE state IN ('pending', 'sent');

-- Files devices upload (the ECG after a rescue), kept in the storage provider.
CREATE TABLE device_files (
  id               bigserial PRIMARY KEY,
  file_id          varchar(64) NOT NULL UNIQUE,
  sender_kind      varchar(8) NOT NULL DEFAULT 'aed',
  sender_id        bigint NOT NULL,
  kind             varchar(8) NOT NULL CHECK (kind IN ('ecg')),
  rescue_event_id  varchar(64) NOT NULL,
  sha256           char(64) NOT NULL,
  size             integer NOT NULL,
  url              text NOT NULL,
  create_time      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX device_files_rescue_idx ON device_files (sender_kind, sender_id, rescue_event_id);
