-- Emergency calls (呼救事件, issue 25, modules/call).
--
-- A call is a record owned by the organisation of the member or integrator that recorded it,
-- seen by that subtree's members and those above (index_link, as every event). It is open until
-- closed with an outcome by a member or its integrator, or by the clock at close_due_at (the
-- organisation's call_close_minutes). The integrator's external_id makes its intake idempotent.
CREATE TABLE call_events (
  id             bigserial PRIMARY KEY,
  agency_id      bigint NOT NULL REFERENCES agencies (id),
  index_link     text NOT NULL,
  source         varchar(10) NOT NULL CHECK (source IN ('console', 'open_api')),
  config_id      bigint REFERENCES app_service_configs (id) ON DELETE SET NULL,
  external_id    varchar(64),
  member_id      bigint REFERENCES members (id) ON DELETE SET NULL,
  -- Who recorded it, kept as text: the member's name or the integrator's organisation.
  recorder       varchar(100),
  phone          varchar(20) NOT NULL,
  -- GCJ-02.
  lat            double precision NOT NULL,
  lon            double precision NOT NULL,
  location       varchar(200) NOT NULL,
  address_code   varchar(6),
  description    varchar(500),
  call_time      timestamptz NOT NULL,
  -- 1 open, 0 closed.
  status         smallint NOT NULL DEFAULT 1 CHECK (status IN (0, 1)),
  outcome        varchar(16) CHECK (outcome IN ('aed_used', 'no_aed_needed', 'cancelled')),
  closed_at      timestamptz,
  close_reason   varchar(12) CHECK (close_reason IN ('integrator', 'member', 'timeout')),
  closed_by      bigint,
  remark         varchar(200),
  close_due_at   timestamptz,
  -- The rescue that answered it: a device within call_radius_m that started within 30 minutes.
  rescue_id      bigint REFERENCES rescue_events (id) ON DELETE SET NULL,
  rescue_distance integer,
  create_time    timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX call_events_external_idx ON call_events (config_id, external_id) WHERE external_id IS NOT NULL;
CREATE INDEX call_events_scope_idx ON call_events (index_link text_pattern_ops, call_time DESC, id DESC);
CREATE INDEX call_events_due_idx ON call_events (close_due_at) WHERE status = 1;
CREATE INDEX call_events_time_idx ON call_events (call_time);
CREATE UNIQUE INDEX call_events_rescue_idx ON call_events (rescue_id) WHERE rescue_id IS NOT NULL;
CREATE INDEX call_events_address_idx ON call_events (address_code text_pattern_ops);
