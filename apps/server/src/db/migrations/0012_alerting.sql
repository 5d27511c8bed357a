-- Alerting: the message centre, the live channel's pushes, alert SMS and escalation.

-- The message centre: a shared inbox. A message is seen by every member whose scope holds its
-- organisation (index_link); one confirmation, with who and when, confirms it for all of them.
CREATE TABLE messages (
  id                bigserial PRIMARY KEY,
  -- 1 call, 2 rescue (first aid), 3 location offset, 4 cabinet door open.
  msg_type          smallint NOT NULL CHECK (msg_type BETWEEN 1 AND 4),
  -- What the dashboard opens from it (event_type and event_id of the 'details' link): 1 call
  -- event, 2 rescue (rescue_events.id), 3 offset (device_events.id), 4 the cabinet's door event.
  event_type        smallint NOT NULL CHECK (event_type BETWEEN 1 AND 4),
  event_id          bigint NOT NULL,
  device_id         bigint REFERENCES devices (id),
  device_sn         varchar(32),
  cabinet_sn        varchar(32),
  -- Where: the installation's (or cabinet's) address at the time.
  location          varchar(200),
  agency_id         bigint NOT NULL REFERENCES agencies (id),
  index_link        text NOT NULL,
  msg_time          timestamptz NOT NULL,
  -- Facts the title is built from in the reader's language (offset distance in metres ...).
  detail            jsonb NOT NULL DEFAULT '{}',
  is_confirm        smallint NOT NULL DEFAULT 0 CHECK (is_confirm IN (0, 1)),
  confirmed_by      bigint REFERENCES members (id) ON DELETE SET NULL,
  confirmed_name    varchar(50),
  confirm_time      timestamptz,
  -- Escalation of alarms (types 2 and 4): steps taken so far and when the next is due; NULL
  -- when none is (confirmed, not an alarm, or the top of the tree was reached).
  escalation_level  smallint NOT NULL DEFAULT 0,
  escalate_at       timestamptz,
  create_time       timestamptz NOT NULL DEFAULT now(),
  UNIQUE (msg_type, event_id)
);
CREATE INDEX messages_scope_idx ON messages (index_link text_pattern_ops, msg_time DESC, id DESC);
CREATE INDEX messages_unconfirmed_idx ON messages (index_link text_pattern_ops) WHERE is_confirm = 0;
CREATE INDEX messages_escalate_idx ON messages (escalate_at) WHERE escalate_at IS NOT NULL;
CREATE INDEX messages_agency_idx ON messages (agency_id);

-- Each escalation step of a message: whose administrators were told, how many SMS went.
CREATE TABLE message_escalations (
  id           bigserial PRIMARY KEY,
  message_id   bigint NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
  level        smallint NOT NULL CHECK (level >= 1),
  agency_id    bigint NOT NULL REFERENCES agencies (id),
  agency_name  varchar(100) NOT NULL,
  recipients   integer NOT NULL DEFAULT 0,
  create_time  timestamptz NOT NULL,
  UNIQUE (message_id, level)
);

-- Every push of the live channel, kept a day so a console that reconnects gets what it missed
-- (`after`). The id is the push's id on the wire; index_link is who may hear it.
CREATE TABLE live_pushes (
  id           bigserial PRIMARY KEY,
  data_type    smallint NOT NULL,
  agency_id    bigint,
  index_link   text NOT NULL,
  -- The push's facts; each console's frame is built from them by the feature's presenter.
  data         jsonb NOT NULL,
  create_time  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX live_pushes_time_idx ON live_pushes (create_time);

-- Every SMS the platform sends (verification codes, alerts, digests) and its state: pending
-- until the provider accepted it, retried with backoff. The local provider sends nothing
-- further: this table is its outbox.
ALTER TABLE sms_outbox
  ADD COLUMN kind varchar(16) NOT NULL DEFAULT 'code' CHECK (kind IN ('code', 'aid', 'status', 'escalation', 'digest')),
  ADD COLUMN idempotency_key varchar(160) UNIQUE,
  ADD COLUMN status varchar(10) NOT NULL DEFAULT 'sent' CHECK (status IN ('pending', 'sent', 'failed')),
  ADD COLUMN provider varchar(16),
  ADD COLUMN attempts integer NOT NULL DEFAULT 0,
  ADD COLUMN available_at timestamptz NOT NULL DEFAULT now(),
  ADD COLUMN sent_at timestamptz,
  ADD COLUMN last_error text;
CREATE INDEX sms_outbox_pending_idx ON sms_outbox (available_at, id) WHERE status = 'pending';

-- Alert SMS waiting to go: one line per (device, condition, day) or alarm and recipient, held
-- until due (the organisation's window and weekdays), then sent alone or with the recipient's
-- other due lines as one digest (sms_id: the SMS that carried it).
CREATE TABLE sms_alerts (
  id           bigserial PRIMARY KEY,
  kind         varchar(16) NOT NULL CHECK (kind IN ('aid', 'status', 'escalation')),
  -- aid:<rescue>:<phone>, status:<device>:<kind>:<code>:<day>, esc:<message>:<level>:<phone>.
  dedupe_key   varchar(160) NOT NULL UNIQUE,
  phone        varchar(11) NOT NULL,
  agency_id    bigint REFERENCES agencies (id),
  device_id    bigint REFERENCES devices (id),
  message_id   bigint REFERENCES messages (id) ON DELETE SET NULL,
  line         varchar(300) NOT NULL,
  due_at       timestamptz NOT NULL,
  sms_id       bigint REFERENCES sms_outbox (id),
  create_time  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sms_alerts_due_idx ON sms_alerts (due_at, phone) WHERE sms_id IS NULL;
CREATE INDEX sms_alerts_agency_idx ON sms_alerts (agency_id);
-- A message's escalation SMS (and deleting a message sets its lines' message_id NULL).
CREATE INDEX sms_alerts_message_idx ON sms_alerts (message_id) WHERE message_id IS NOT NULL;
