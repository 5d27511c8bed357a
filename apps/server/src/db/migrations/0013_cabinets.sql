-- Rescue cabinets (救护箱): boxes in public places that hold an AED. They report over the same
-- protocol as AEDs (cabinet_status, door) with their own serial and secret; an opened door is
-- the first sign of an emergency or a theft.

CREATE TABLE cabinets (
  id                 bigserial PRIMARY KEY,
  cabinet_sn         varchar(32) NOT NULL,
  -- The owning organisation (import, assignment); scope is this organisation's subtree.
  agency_id          bigint NOT NULL REFERENCES agencies (id),
  -- One secret per cabinet, as for devices (AES-256-GCM under DEVICE_SECRET_KEY).
  secret_enc         text NOT NULL,
  prev_secret_enc    text,
  prev_secret_until  timestamptz,
  -- The AED in it (bind_device); one AED sits in at most one cabinet.
  device_id          bigint REFERENCES devices (id),
  -- What its last report said: door 1 open / 0 closed, battery 0-100, firmware, position
  -- (GCJ-02, converted from the report's WGS-84) and its address, and whether the AED is inside.
  door_status        smallint CHECK (door_status IN (0, 1)),
  battery_power      smallint CHECK (battery_power BETWEEN 0 AND 100),
  fw_version         varchar(32),
  lat                double precision,
  lon                double precision,
  altitude           double precision,
  location           varchar(200),
  aed_present        boolean,
  -- When it last reported (data_upload_time of the list).
  data_upload_time   timestamptz,
  creator            bigint,
  create_time        timestamptz NOT NULL DEFAULT now(),
  update_time        timestamptz NOT NULL DEFAULT now(),
  deleted_at         timestamptz
);
CREATE UNIQUE INDEX cabinets_sn_live_idx ON cabinets (cabinet_sn) WHERE deleted_at IS NULL;
CREATE UNIQUE INDEX cabinets_device_idx ON cabinets (device_id) WHERE device_id IS NOT NULL AND deleted_at IS NULL;
CREATE INDEX cabinets_agency_idx ON cabinets (agency_id, create_time DESC) WHERE deleted_at IS NULL;
CREATE INDEX cabinets_sn_trgm_idx ON cabinets USING gin (cabinet_sn gin_trgm_ops);

-- What the engine keeps of a cabinet that ever reported (as device_states for AEDs).
CREATE TABLE cabinet_states (
  cabinet_id         bigint PRIMARY KEY REFERENCES cabinets (id),
  last_boot          integer NOT NULL DEFAULT 0,
  last_seq           bigint NOT NULL DEFAULT -1,
  last_seen_at       timestamptz NOT NULL,
  report_interval_s  integer,
  -- Offline when this passes without a message (the same stored-deadline sweep as AEDs).
  next_deadline_at   timestamptz,
  offline            boolean NOT NULL DEFAULT false,
  update_time        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX cabinet_states_deadline_idx ON cabinet_states (next_deadline_at) WHERE NOT offline;

-- Self-check records (the cabinet message record): every cabinet_status and door report.
CREATE TABLE cabinet_records (
  id                bigserial PRIMARY KEY,
  cabinet_id        bigint NOT NULL REFERENCES cabinets (id),
  -- The message type: cabinet_status or door.
  upload_data_type  varchar(16) NOT NULL,
  -- The AED bound at the time.
  device_sn         varchar(32),
  device_model      varchar(16),
  door_status       smallint,
  battery_power     smallint,
  fw_version        varchar(32),
  lat               double precision,
  lon               double precision,
  location          varchar(200),
  altitude          double precision,
  aed_present       boolean,
  update_time       timestamptz NOT NULL
);
CREATE INDEX cabinet_records_cabinet_idx ON cabinet_records (cabinet_id, update_time DESC, id DESC);

-- Bind records: every assignment (1), bind (2) and unbind (3), with who and for which AED.
CREATE TABLE cabinet_binds (
  id             bigserial PRIMARY KEY,
  cabinet_id     bigint NOT NULL REFERENCES cabinets (id),
  action         smallint NOT NULL CHECK (action IN (1, 2, 3)),
  device_id      bigint REFERENCES devices (id),
  device_sn      varchar(32),
  device_model   varchar(16),
  agency_id      bigint NOT NULL REFERENCES agencies (id),
  agency_name    varchar(100) NOT NULL,
  operator_id    bigint,
  operator       varchar(50) NOT NULL,
  operate_time   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX cabinet_binds_cabinet_idx ON cabinet_binds (cabinet_id, operate_time DESC, id DESC);

-- Door events: a door opened (door 1) until it closed. They carry the cabinet's organisation
-- path (who hears of them), the AED bound at the time, and when the AED left and came back, so
-- the rescue flow knows which cabinet an AED came from and an AED not returned is noticed.
CREATE TABLE cabinet_door_events (
  id            bigserial PRIMARY KEY,
  cabinet_id    bigint NOT NULL REFERENCES cabinets (id),
  agency_id     bigint NOT NULL REFERENCES agencies (id),
  index_link    text NOT NULL,
  device_id     bigint REFERENCES devices (id),
  location      varchar(200),
  opened_at     timestamptz NOT NULL,
  closed_at     timestamptz,
  aed_left_at   timestamptz,
  aed_back_at   timestamptz,
  create_time   timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX cabinet_door_events_open_idx ON cabinet_door_events (cabinet_id) WHERE closed_at IS NULL;
CREATE INDEX cabinet_door_events_cabinet_idx ON cabinet_door_events (cabinet_id, opened_at DESC);
CREATE INDEX cabinet_door_events_device_idx ON cabinet_door_events (device_id, opened_at DESC);
CREATE INDEX cabinet_door_events_scope_idx ON cabinet_door_events (index_link text_pattern_ops, opened_at DESC);

-- The engine's side of door events (helper: engine). When the AED of a door event left
-- (aed_left_at) and the door closed, it is due back by return_due_at (closed + 2 hours); the
-- sweep stamps not_returned_at when it is not, which opens the AED's 'not_returned' warning
-- until the cabinet reports it present again (aed_back_at).
ALTER TABLE cabinet_door_events ADD COLUMN return_due_at timestamptz;
ALTER TABLE cabinet_door_events ADD COLUMN not_returned_at timestamptz;
CREATE INDEX cabinet_door_events_due_idx ON cabinet_door_events (return_due_at)
  WHERE return_due_at IS NOT NULL AND not_returned_at IS NULL AND aed_back_at IS NULL;
CREATE INDEX cabinet_door_events_not_returned_idx ON cabinet_door_events (device_id)
  WHERE not_returned_at IS NOT NULL AND aed_back_at IS NULL;

-- Which cabinet a rescue's AED came from (its bound cabinet when the rescue started) and the
-- door opening it left through, when one matched.
ALTER TABLE rescue_events ADD COLUMN cabinet_id bigint REFERENCES cabinets (id) ON DELETE SET NULL;
ALTER TABLE rescue_events ADD COLUMN cabinet_door_event_id bigint
  REFERENCES cabinet_door_events (id) ON DELETE SET NULL;
