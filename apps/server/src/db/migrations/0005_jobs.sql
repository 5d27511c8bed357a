-- Scheduled jobs run once per cluster: each job's last run is kept here, read and written under
-- the job's advisory lock, so neither a restart nor a second server instance runs it early.
CREATE TABLE job_runs (
  name             varchar(100) PRIMARY KEY,
  -- Clock time of the last successful run; the job is due again `everyMs` after it.
  last_run_at      timestamptz,
  last_started_at  timestamptz,
  last_error       text,
  last_error_at    timestamptz,
  -- Failures since the last success (a failed run is retried on the next tick).
  failures         integer NOT NULL DEFAULT 0,
  runs             bigint NOT NULL DEFAULT 0
);

-- Nonces of signed device HTTPS requests: a nonce seen again within the retention is a replay.
-- Kept 30 minutes (the timestamp window is 15 minutes either side); the housekeeping job purges.
CREATE TABLE device_nonces (
  device_sn  varchar(64) NOT NULL,
  nonce      varchar(64) NOT NULL,
  seen_at    timestamptz NOT NULL,
  PRIMARY KEY (device_sn, nonce)
);
CREATE INDEX device_nonces_seen_at_idx ON device_nonces (seen_at);
