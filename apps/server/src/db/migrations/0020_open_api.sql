-- The open API and its webhooks (issue 23, docs/open-api.md).
--
-- Nearest ready AEDs: earthdistance over cube (both ship with PostgreSQL's contrib and PGlite),
-- a GiST index on each live installation's point. `ll_to_earth(...) <-> ll_to_earth(...)` walks
-- the index nearest first (the chord, in the same order as the distance on the ground).
CREATE EXTENSION IF NOT EXISTS cube;
CREATE EXTENSION IF NOT EXISTS earthdistance;
CREATE INDEX IF NOT EXISTS installations_earth_idx ON installations USING gist (ll_to_earth(lat, lon))
  WHERE removed_at IS NULL AND device_id IS NOT NULL;

-- A configuration's credentials: the previous pair keeps signing for 24 hours after a
-- regeneration; the webhook endpoint, its secret (whsec_...), and why it was disabled.
ALTER TABLE app_service_configs
  ADD COLUMN prev_secret varchar(64),
  ADD COLUMN prev_access_token varchar(96),
  ADD COLUMN prev_until timestamptz,
  ADD COLUMN push_url varchar(500),
  ADD COLUMN push_secret varchar(100),
  ADD COLUMN push_disabled_reason varchar(10),
  ADD COLUMN push_disabled_at timestamptz;
CREATE UNIQUE INDEX app_service_configs_token_idx ON app_service_configs (access_token);
CREATE INDEX app_service_configs_prev_token_idx ON app_service_configs (prev_access_token)
  WHERE prev_access_token IS NOT NULL;

-- Each integrator nonce once per configuration (kept past the 5-minute timestamp window).
CREATE TABLE open_api_nonces (
  config_id bigint NOT NULL,
  nonce varchar(64) NOT NULL,
  seen_at timestamptz NOT NULL,
  PRIMARY KEY (config_id, nonce)
);

-- The request limit per configuration: a token bucket, shared by every server instance.
CREATE TABLE open_api_buckets (
  config_id bigint PRIMARY KEY,
  tokens double precision NOT NULL,
  updated_at timestamptz NOT NULL
);

-- One row per event and endpoint: what is sent (the same webhook-id on every attempt), its
-- state and its last attempt. The outbox's webhook rows fan out into these (jobs/outbox.ts);
-- the sender leases a configuration's oldest pending rows, so an endpoint gets its events in
-- order and two instances never send one at once.
CREATE TABLE webhook_deliveries (
  id bigserial PRIMARY KEY,
  config_id bigint NOT NULL REFERENCES app_service_configs (id) ON DELETE CASCADE,
  event varchar(40) NOT NULL,
  event_key varchar(160) NOT NULL,
  event_time timestamptz NOT NULL,
  payload jsonb NOT NULL,
  state varchar(10) NOT NULL DEFAULT 'pending'
    CHECK (state IN ('pending', 'delivered', 'failed', 'cancelled')),
  attempts integer NOT NULL DEFAULT 0,
  next_at timestamptz NOT NULL,
  leased_until timestamptz,
  last_attempt_at timestamptz,
  last_status smallint,
  last_error text,
  last_duration_ms integer,
  delivered_at timestamptz,
  create_time timestamptz NOT NULL DEFAULT now(),
  UNIQUE (config_id, event_key)
);
CREATE INDEX webhook_deliveries_pending_idx ON webhook_deliveries (config_id, id) WHERE state = 'pending';
CREATE INDEX webhook_deliveries_log_idx ON webhook_deliveries (config_id, id DESC);
CREATE INDEX webhook_deliveries_done_idx ON webhook_deliveries (create_time) WHERE state <> 'pending';
