-- What devices report, as the device detail and the event pages show it. The gateway (inbox,
-- reducer, outbox) writes these rows in the transaction that processes a device message; the
-- console reads them and the clean-up deletes them.
--
-- Every record keeps the organisation path (index_link) and the installation it happened at,
-- copied from the installation when it is written: the scope filter is one LIKE on the row, no
-- join, and a device that moves to another organisation leaves its old records where they were.
-- When an organisation moves (agencies.index_link rewritten), the trigger at the end carries the
-- new path to its records.

-- Self-tests (detection records): one row per `selftest` message.
CREATE TABLE device_detections (
  id               bigserial PRIMARY KEY,
  device_id        bigint NOT NULL REFERENCES devices (id),
  installation_id  bigint REFERENCES installations (id),
  agency_id        bigint NOT NULL REFERENCES agencies (id),
  index_link       text NOT NULL,
  -- -1 user inspection, 0 power-on self-test, 1 standby self-test, 2 user self-test.
  report_type      smallint NOT NULL CHECK (report_type BETWEEN -1 AND 2),
  -- 1 passed, 0 failed.
  check_result     smallint NOT NULL CHECK (check_result IN (0, 1)),
  fault_codes      text[] NOT NULL DEFAULT '{}',
  battery          smallint CHECK (battery BETWEEN 0 AND 100),
  check_time       timestamptz NOT NULL,
  create_time      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX device_detections_device_idx ON device_detections (device_id, check_time DESC, id DESC);
CREATE INDEX device_detections_scope_idx ON device_detections (index_link text_pattern_ops, check_time DESC);
CREATE INDEX device_detections_agency_idx ON device_detections (agency_id);

-- Conditions of a device: each opens an event (the current list) and closing it moves it to the
-- history. kind: warning (early warning), fault, offset (location offset), offline.
-- A condition is (device, kind, code): code is the warning's event_code or the fault's
-- fault_code (a device can have a low battery and expiring pads at once), '' for offset and
-- offline. At most one event per condition is open, enforced by the partial unique index.
CREATE TABLE device_events (
  id                bigserial PRIMARY KEY,
  device_id         bigint NOT NULL REFERENCES devices (id),
  installation_id   bigint REFERENCES installations (id),
  agency_id         bigint NOT NULL REFERENCES agencies (id),
  index_link        text NOT NULL,
  kind              varchar(16) NOT NULL CHECK (kind IN ('warning', 'fault', 'offset', 'offline')),
  code              varchar(32) NOT NULL DEFAULT '',
  -- When it began: the warning's event_time, the fault's check_time, the offset's event_time,
  -- the offline_time.
  event_time        timestamptz NOT NULL,
  -- When it ended (NULL while open): the warning's invalid_time, the fault's recovery (a passed
  -- self-test), the offset's return, back online.
  closed_at         timestamptz,
  -- The warning's content, the fault's fault_desc.
  content           varchar(500),
  -- Faults: the self-test that found it (report_type as in device_detections).
  report_type       smallint CHECK (report_type BETWEEN -1 AND 2),
  detection_id      bigint REFERENCES device_detections (id) ON DELETE SET NULL,
  -- Faults: who handled it, when, and their note.
  handler           bigint REFERENCES members (id) ON DELETE SET NULL,
  handler_name      varchar(50),
  handle_note       varchar(500),
  handle_time       timestamptz,
  -- Offsets: the installation's address, where the device was found (GCJ-02 and its address),
  -- and how far apart in metres.
  install_location  varchar(200),
  offset_location   varchar(200),
  offset_lat        double precision,
  offset_lon        double precision,
  offset_distance   integer CHECK (offset_distance >= 0),
  create_time       timestamptz NOT NULL DEFAULT now(),
  CHECK (kind IN ('warning', 'fault') OR code = '')
);
CREATE UNIQUE INDEX device_events_open_idx ON device_events (device_id, kind, code) WHERE closed_at IS NULL;
-- The detail tabs: one device's events of a kind, newest first.
CREATE INDEX device_events_device_idx ON device_events (device_id, kind, event_time DESC, id DESC);
-- The event pages: current (open) and history (closed) lists of a kind in a subtree, by time.
CREATE INDEX device_events_current_idx ON device_events (kind, index_link text_pattern_ops, event_time DESC)
  WHERE closed_at IS NULL;
CREATE INDEX device_events_history_idx ON device_events (kind, index_link text_pattern_ops, event_time DESC)
  WHERE closed_at IS NOT NULL;
CREATE INDEX device_events_agency_idx ON device_events (agency_id);

-- Rescues: a `usage` message with a new rescue_event_id (the device's own id of the use)
-- starts one; at most one per device is under way (ended_at NULL), and while it is, location
-- offsets are not raised.
CREATE TABLE rescue_events (
  id                bigserial PRIMARY KEY,
  device_id         bigint NOT NULL REFERENCES devices (id),
  installation_id   bigint REFERENCES installations (id),
  agency_id         bigint NOT NULL REFERENCES agencies (id),
  index_link        text NOT NULL,
  rescue_event_id   varchar(64) NOT NULL,
  event_time        timestamptz NOT NULL,
  ended_at          timestamptz,
  -- Where it happened (GCJ-02) and its address; the installation's place when the device sent none.
  event_lat         double precision,
  event_lon         double precision,
  event_location    varchar(200),
  -- The ECG the device uploaded after the rescue (a `file` message); NULL: 文件未上传！.
  ecg_file_url      text,
  create_time       timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX rescue_events_device_event_idx ON rescue_events (device_id, rescue_event_id);
CREATE UNIQUE INDEX rescue_events_open_idx ON rescue_events (device_id) WHERE ended_at IS NULL;
CREATE INDEX rescue_events_device_idx ON rescue_events (device_id, event_time DESC, id DESC);
CREATE INDEX rescue_events_scope_idx ON rescue_events (index_link text_pattern_ops, event_time DESC);
CREATE INDEX rescue_events_agency_idx ON rescue_events (agency_id);

-- The usage log: the steps of a rescue as the device reported them (power on, pads on patient,
-- analysis, shock advised, shock delivered, CPR). Scoped through its rescue; deleted with it.
CREATE TABLE device_usage_logs (
  id               bigserial PRIMARY KEY,
  rescue_id        bigint NOT NULL REFERENCES rescue_events (id) ON DELETE CASCADE,
  device_id        bigint NOT NULL REFERENCES devices (id),
  rescue_event_id  varchar(64) NOT NULL,
  event_desc       varchar(200) NOT NULL,
  -- The step's parameters as the device sent them (JSON text when they were not a string).
  event_para       text,
  event_time       timestamptz NOT NULL,
  create_time      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX device_usage_logs_device_idx ON device_usage_logs (device_id, event_time DESC, id DESC);
CREATE INDEX device_usage_logs_rescue_idx ON device_usage_logs (rescue_id, event_time DESC);

-- An organisation that moves (its index_link and its subtree's are rewritten) takes its
-- records' paths with it, so the stored paths never go stale.
CREATE FUNCTION device_records_follow_agency() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE device_events SET index_link = NEW.index_link WHERE agency_id = NEW.id;
  UPDATE device_detections SET index_link = NEW.index_link WHERE agency_id = NEW.id;
  UPDATE rescue_events SET index_link = NEW.index_link WHERE agency_id = NEW.id;
  RETURN NULL;
END
$$;
CREATE TRIGGER agencies_path_to_device_records
  AFTER UPDATE OF index_link ON agencies
  FOR EACH ROW WHEN (OLD.index_link IS DISTINCT FROM NEW.index_link)
  EXECUTE FUNCTION device_records_follow_agency();
