-- Per-organisation service configuration: which platform services an organisation uses, and
-- the credentials its systems call the open API with.
CREATE TABLE app_service_configs (
  id            bigserial PRIMARY KEY,
  agency_id     bigint NOT NULL UNIQUE REFERENCES agencies (id),
  service       jsonb NOT NULL DEFAULT '[]'::jsonb,
  state         smallint NOT NULL DEFAULT 1 CHECK (state IN (0, 1)),
  secret        varchar(64) NOT NULL,
  access_token  varchar(96) NOT NULL UNIQUE,
  apply_time    timestamptz NOT NULL DEFAULT now(),
  creator       bigint,
  create_time   timestamptz NOT NULL DEFAULT now(),
  update_time   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX app_service_configs_apply_time_idx ON app_service_configs (apply_time DESC);
CREATE INDEX app_service_configs_service_idx ON app_service_configs USING gin (service);

-- The operation log page filters by operator and content within a time range.
CREATE INDEX operation_logs_operator_idx ON operation_logs (operator);
